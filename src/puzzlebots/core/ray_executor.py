"""A ``concurrent.futures.Executor`` over Ray, so batch evaluation can run on a cluster (the ``[ray]`` extra).

``RayExecutor`` plugs in wherever a ``ProcessPoolExecutor`` is used: ``submit`` turns the call into a Ray
task and returns a plain ``concurrent.futures.Future``; ``map`` (inherited) keeps the input order, so results
per seed are the same whichever executor ran them.
"""

from __future__ import annotations

import logging
import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from concurrent.futures import wait as wait_for
from contextlib import contextmanager
from typing import Any

from .errors import ConfigError

#: seconds to reach a cluster's address; Ray's own connection retries are bounded to about this many tries
CONNECT_SECONDS = 5
#: an HTTP/2 client's first bytes (connection preface and an empty SETTINGS frame), and the SETTINGS frame type
HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + b"\x00\x00\x00\x04\x00\x00\x00\x00\x00"
HTTP2_SETTINGS = 4


def _call(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fn(*args, **kwargs)


class RayExecutor(Executor):
    """Runs submitted calls as Ray tasks.

    ``address=None`` starts a local Ray instance with ``num_cpus`` CPUs (or joins the one this process
    already started); an address such as ``"ray://head:10001"`` or ``"auto"`` attaches to a cluster.
    ``shutdown`` stops Ray only if this executor started it. An ``address`` that does not answer is a
    ``ConfigError`` after a bounded wait (Ray alone would retry for many minutes).
    """

    def __init__(self, address: str | None = None, num_cpus: int | None = None) -> None:
        try:
            import ray
        except ImportError as exc:  # pragma: no cover - depends on the installed extras
            raise ConfigError("--executor ray needs Ray: pip install 'puzzlebots[ray]'") from exc
        self._ray = ray
        self._owns_ray = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.WARNING,
            }
            if address is None:
                kwargs["num_cpus"] = num_cpus
                # Ray starts its workers at niceness 15: beside other CPU-bound work a local run's tasks then get
                # almost no CPU. A local cluster is the user's own run, so its workers run at the caller's niceness.
                os.environ.setdefault("RAY_worker_niceness", "0")
            else:
                reach_ray(address)
            try:
                with _own_sigterm():
                    ray.init(address=address, **kwargs)
            except (ConnectionError, ValueError, RuntimeError) as exc:
                where = address or "a local instance"
                why = " ".join(str(exc).split())
                raise ConfigError(f"cannot start or reach Ray at {where}: {why}") from exc
            self._owns_ray = True
        self._remote = ray.remote(_call)
        self._closed = False
        self._pending: dict[Future[Any], Any] = {}
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self._closed:
            raise RuntimeError("cannot submit to a RayExecutor after shutdown")
        ref = self._remote.remote(fn, args, kwargs)
        future: Future[Any] = ref.future()
        self._pending[future] = ref
        future.add_done_callback(lambda f: self._pending.pop(f, None))
        return future

    def cancel(self, future: Future[Any]) -> None:
        """Cancel a submitted call: its future is cancelled at once, and the Ray task is dropped if it has not
        started, or its worker killed (Ray starts another when a task needs one). Ray's gentler cancel, a
        ``KeyboardInterrupt`` in the worker, was seen lost in a worker that had just started a call, which then
        ran to its own time limit on a CPU the cluster counted as free."""
        ref = self._pending.get(future)
        if ref is not None and future.cancel():
            self._ray.cancel(ref, force=True)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if self._closed:
            return
        self._closed = True
        if cancel_futures:
            for future in list(self._pending):
                self.cancel(future)
        if wait:
            wait_for(list(self._pending))
        if self._owns_ray:
            self._ray.shutdown()


@contextmanager
def _own_sigterm() -> Iterator[None]:
    """Keep the caller's SIGTERM handler over ``ray.init``, which sets one that raises ``SystemExit(15)``: past
    every path that keeps results on Ctrl-C, with a stack dump from Ray. The command's handler stops it as
    Ctrl-C does, Ray shut down on the way."""
    main = threading.current_thread() is threading.main_thread()
    before = signal.getsignal(signal.SIGTERM) if main else None
    try:
        yield
    finally:
        if before is not None:
            signal.signal(signal.SIGTERM, before)


def reach_ray(address: str) -> None:
    """Fail in seconds unless ``host:port`` answers as a Ray head does (gRPC), and bound Ray's own retries.

    Ray retries a silent or foreign address for many minutes. Its GCS is a gRPC server: given the HTTP/2
    preface it answers with a SETTINGS frame at once, which nobody listening, a silent peer or another
    protocol does not.
    """
    host, sep, port = address.rpartition(":")
    if sep and port.isdigit() and "://" not in host:
        try:
            with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS) as conn:
                conn.sendall(HTTP2_PREFACE)
                conn.settimeout(CONNECT_SECONDS)
                frame = conn.recv(9)
        except TimeoutError:
            raise ConfigError(f"cannot reach Ray at {address}: no answer within {CONNECT_SECONDS} s") from None
        except OSError as exc:
            raise ConfigError(f"cannot reach Ray at {address}: {exc.strerror or exc}") from None
        if len(frame) < 4 or frame[3] != HTTP2_SETTINGS:
            raise ConfigError(f"cannot reach Ray at {address}: what answers there is not a Ray cluster")
    os.environ.setdefault("RAY_gcs_server_port_wait_time_s", str(CONNECT_SECONDS))
    os.environ.setdefault("RAY_py_gcs_connect_timeout_s", str(CONNECT_SECONDS))
