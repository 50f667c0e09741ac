"""Transcription on a Redis job queue, for team servers (``viva serve --queue redis://…``).

    web worker                       Redis (RQ)                 viva worker (any machine)
    upload ─▶ row in the database ─▶ job id on the queue ─────▶ read the row, transcribe,
    poll  ◀── row + job state, position, progress ◀──────────── write transcript to the row

The queue is run by RQ (a small, well-kept task library whose jobs know their position in
the queue, carry metadata for progress, are retried a bounded number of times, and whose
workers register themselves with a heartbeat). The audio and the result travel through the
database, so no machine's local disk is involved; Redis holds only ids and live state.
A worker killed mid-job stops renewing its lease; another worker (or the same one
restarted) takes the job back once the lease lapses, up to ``queue_retries`` more times.

Without a queue URL none of this is imported: single-user mode needs neither Redis nor RQ
(the ``queue`` extra).
"""

from viva.jobqueue.client import JobQueue, JobStatus

__all__ = ["JobQueue", "JobStatus"]
