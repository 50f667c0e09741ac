"""The team-server topology of ``deploy/docker-compose.yml``, started as plain processes.

Docker is not needed: the compose file is read for what it declares — how many web and
worker replicas, their commands and environment, the nginx config the proxy mounts — and
each service becomes local processes on 127.0.0.1: ``viva serve`` per web replica on a
port of its own, ``viva worker`` per worker replica, nginx with the same config pointed at
those ports. PostgreSQL (a fresh schema) and Redis (a fresh queue name) are the machine's.
The compose service names that the file uses as hosts are swapped for the local addresses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import yaml

from tests.jobqueue.processes import VIVA, environment, free_port, start, stop, wait_for
from tests.jobqueue.redis_queue import missing

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "deploy" / "docker-compose.yml"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return data


@dataclass
class Topology:
    proxy_url: str
    web_urls: list[str]
    database_url: str
    queue_url: str
    queue_name: str
    web: list[subprocess.Popen[bytes]] = field(default_factory=list)
    workers: list[subprocess.Popen[bytes]] = field(default_factory=list)
    web_commands: list[list[str]] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)
    logs: Path = Path()

    def restart_web(self) -> None:
        """Stop every web replica, then start them again (a deploy, or a crash and restart)."""
        for process in self.web:
            stop(process)
        self.web = [
            start(command, self.env, self.logs / f"web-{i}-again.log")
            for i, command in enumerate(self.web_commands)
        ]
        for url in self.web_urls:
            wait_for(f"{url} to come back", lambda url=url: _answers(f"{url}/healthz"), timeout=60)


def _answers(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _local_command(command: list[str], **swap: str) -> list[str]:
    """A compose command run here: ``viva`` as this interpreter; option values swapped."""
    assert command[0] == "viva", command
    args = list(command[1:])
    for option, value in swap.items():
        flag = "--" + option.replace("_", "-")
        assert flag in args, f"the compose command has no {flag}: {command}"
        args[args.index(flag) + 1] = value
    return [*VIVA, *args]


def _nginx_config(snippet: str, web_ports: list[int], port: int, prefix: Path) -> str:
    upstream = "\n".join(f"    server 127.0.0.1:{p};" for p in web_ports)
    assert "    server web:8000;" in snippet and "listen 80;" in snippet
    body = snippet.replace("    server web:8000;", upstream).replace(
        "listen 80;", f"listen 127.0.0.1:{port};"
    )
    temp = "\n".join(
        f"  {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # as root, nginx's workers would drop to "nobody", who cannot reach pytest's private temp folder
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (
        f"{user}pid {prefix / 'nginx.pid'};\nerror_log {prefix / 'error.log'};\nevents {{}}\n"
        f"http {{\n  access_log off;\n{temp}\n{body}\n}}\n"
    )


@contextmanager
def running_topology(
    database_url: str, queue_url: str, queue_name: str, bank_dir: Path, logs: Path, **extra_env: str
) -> Iterator[Topology]:
    spec = compose()
    services = spec["services"]
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None:
        missing("nginx is not installed (apt-get install nginx-light)")
    declared = services["web"]["environment"]
    assert "@postgres:5432/" in declared["VIVA_DATABASE_URL"] and declared["VIVA_QUEUE_URL"].startswith(
        "redis://redis:6379"
    )
    local = {
        **{k: str(v) for k, v in declared.items() if not str(v).startswith("${")},
        "VIVA_DATABASE_URL": database_url,
        "VIVA_QUEUE_URL": queue_url,
        "VIVA_QUEUE_NAME": queue_name,
        "VIVA_CONTENT_DIR": str(bank_dir),
        "VIVA_DATA_DIR": str(logs),
        **extra_env,
    }
    env = environment(**local)
    assert services["worker"]["environment"] == declared, "web and worker must share one environment"
    web_replicas = int(services["web"]["deploy"]["replicas"])
    worker_replicas = int(services["worker"]["deploy"]["replicas"])
    ports = [free_port() for _ in range(web_replicas)]
    proxy_port = free_port()
    web_commands = [
        _local_command(services["web"]["command"], host="127.0.0.1", port=str(port)) for port in ports
    ]
    worker_command = _local_command(services["worker"]["command"])
    mount = next(v for v in services["proxy"]["volumes"] if v.endswith("/etc/nginx/conf.d/default.conf:ro"))
    snippet = (COMPOSE.parent / mount.split(":")[0]).read_text(encoding="utf-8")
    prefix = logs / "nginx"
    prefix.mkdir()
    (prefix / "nginx.conf").write_text(_nginx_config(snippet, ports, proxy_port, prefix))

    topology = Topology(
        proxy_url=f"http://127.0.0.1:{proxy_port}",
        web_urls=[f"http://127.0.0.1:{p}" for p in ports],
        database_url=database_url,
        queue_url=queue_url,
        queue_name=queue_name,
        web_commands=web_commands,
        env=env,
        logs=logs,
    )
    with ExitStack() as cleanup:
        proxy = start([nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-g", "daemon off;"],
                      env, logs / "nginx.log")  # fmt: skip
        cleanup.callback(stop, proxy)
        # the first web replica migrates alone, as compose's healthcheck ordering would have it
        for i, command in enumerate(web_commands):
            process = start(command, env, logs / f"web-{i}.log")
            topology.web.append(process)
        cleanup.callback(lambda: [stop(p) for p in topology.web])
        for i in range(worker_replicas):
            process = start([*worker_command, "--name", f"{queue_name}-w{i}"], env, logs / f"worker-{i}.log")
            topology.workers.append(process)
        cleanup.callback(lambda: [stop(p) for p in topology.workers])
        for url in topology.web_urls:
            wait_for(f"{url} to answer", lambda url=url: _answers(f"{url}/healthz"), timeout=90)
        wait_for("the proxy to answer", lambda: _answers(f"{topology.proxy_url}/healthz"), timeout=30)
        yield topology
