"""A re-executed host goes on journaling: what its sessions print after ``serve --reexec`` is on disk too, so a
crash after the re-exec loses no more than a crash before it would."""

from __future__ import annotations

import signal

from ..support.serves import EXPECTED, FLOOD, ReexecServe, numbered, release_floods
from ..support.sessions import start_background


async def test_sessions_printed_across_a_reexec_come_back_whole_after_a_crash(tmp_path) -> None:
    serve = ReexecServe(tmp_path)
    try:
        await serve.start()
        flood = await start_background(serve.call, FLOOD, workdir=str(serve.workdir))
        prompt = await start_background(serve.call, "read x; echo got $x", pty=True,
                                        workdir=str(serve.workdir))
        running = await start_background(serve.call, "sleep 600", workdir=str(serve.workdir))
        said = await serve.reexeced()  # while the flood runs: half its lines come after the handover
        assert "3 sessions kept" in said, said
        release_floods(serve.workdir)
        assert (await serve.ended(flood))["exitCode"] == 0
        await serve.call({"tool": "process", "action": "write", "sessionId": prompt, "data": "after\n"})
        assert (await serve.ended(prompt))["exitCode"] == 0
        before = {sid: await serve.log(sid) for sid in (flood, prompt)}

        assert serve.proc is not None
        serve.proc.send_signal(signal.SIGKILL)  # a crash of the re-executed host
        serve.proc.wait()
        await serve.start()  # the next host on the socket
        # notices come first: the host-died one, and that of an exit whose "told" the crash may have cut off
        told = await serve.call({"tool": "process", "action": "list"})
        assert running in [n["sessionId"] for n in told["details"]["notifications"]], told
        for sid, text in before.items():
            assert await serve.log(sid) == text, f"{sid} came back different"
        assert numbered(before[flood]) == EXPECTED
        assert "got after" in before[prompt]
        died = (await serve.poll(running))["details"]
        assert died["status"] == "failed" and died["failureKind"] == "host-died", died
        new = await start_background(serve.call, "true", workdir=str(serve.workdir))
        assert new not in (flood, prompt, running), "an id issued before the re-exec was issued again"
    finally:
        await serve.close()
