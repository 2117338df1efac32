"""A real HTTP server on loopback that speaks both model protocols with scripted answers.

``/v1/chat/completions`` answers as an OpenAI-compatible server, ``/v1/messages`` as
Anthropic (a ``tool_use`` block when the request offers tools). Each request takes the
next :class:`Step` of the script (a valid answer once the script runs out): valid,
invalid JSON, schema-violating, code that does not parse, an invented identifier, an
error status with headers, or a slow answer. Token usage is counted from the text
(words and punctuation), so accounting can be checked against the server's own log.
Used by the tests and by ``bench/llm_reanalyze.py``; nothing leaves the machine.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Literal, Self

StepKind = Literal["valid", "invalid_json", "schema", "bad_code", "unknown_name", "status", "slow"]

_TOKEN = re.compile(r"\w+|[^\w\s]")
_CLASS = re.compile(r"^Statement: \w+ ([A-Za-z_][\w.]*)", re.MULTILINE)


def count_tokens(text: str) -> int:
    """A stand-in for a tokenizer: words and punctuation marks."""
    return len(_TOKEN.findall(text))


@dataclass
class Step:
    kind: StepKind = "valid"
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    body: str | None = None


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    step: Step


def valid_answer(user_prompt: str) -> dict[str, Any]:
    """A schema-valid answer that names only what the prompt shows."""
    match = _CLASS.search(user_prompt)
    cls = match.group(1) if match and match.group(1) != "an" else "Exception"
    short = cls.rsplit(".", 1)[-1]
    return {
        "documentation": f"{short} is raised when the guarded condition holds.",
        "triggerScenarios": "Calling the enclosing function with values that meet the condition.",
        "commonSituations": "Passing an unexpected value.",
        "solutions": ["Check the value before the call."],
        "exampleFix": None,
        "handlingStrategy": "try-catch",
        "validationCode": None,
        "typeGuard": None,
        "tryCatchPattern": f"try:\n    ...\nexcept {short} as exc:\n    print(exc)",
        "preventionTips": ["Validate inputs early."],
        "tags": ["Fake Model", short],
        "backgroundTag": "invalid-value",
    }


def _answer_for(step: Step, user_prompt: str) -> dict[str, Any] | str:
    answer = valid_answer(user_prompt)
    if step.kind == "invalid_json":
        return '{"documentation": "cut off'
    if step.kind == "schema":
        del answer["documentation"]
        answer["backgroundTag"] = "cosmic-rays"
        return answer
    if step.kind == "bad_code":
        answer["tryCatchPattern"] = "try:\n    spin(\nexcept"
        return answer
    if step.kind == "unknown_name":
        answer["exampleFix"] = "// before\nspin(w, -1)\n// after\nwidgets.frobnicate_speed(w)"
        answer["documentation"] += " See `widgets.turbo_mode`."
        return answer
    return answer


class FakeLlmServer:
    """A ThreadingHTTPServer on 127.0.0.1 with a script of answers; a context manager."""

    def __init__(self, script: list[Step] | None = None) -> None:
        self.script: deque[Step] = deque(script or [])
        #: What a request gets once the script has run out.
        self.default = Step()
        self.requests: list[Received] = []
        self.tokens_in = 0
        self.tokens_out = 0
        self.in_flight = 0
        self.max_in_flight = 0
        #: Called with the 1-based number of each request before it is answered.
        self.on_request: Callable[[int], None] | None = None
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def root(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def openai_base(self) -> str:
        return self.root + "/v1"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _next(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, Step]:
        with self._lock:
            step = self.script.popleft() if self.script else self.default
            self.requests.append(Received(path, headers, body, step))
            return len(self.requests), step

    def _account(self, prompt: str, answer: str) -> tuple[int, int]:
        tokens_in, tokens_out = count_tokens(prompt), count_tokens(answer)
        with self._lock:
            self.tokens_in += tokens_in
            self.tokens_out += tokens_out
        return tokens_in, tokens_out

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                number, step = server._next(self.path, headers, body)
                if server.on_request is not None:
                    server.on_request(number)
                with server._lock:
                    server.in_flight += 1
                    server.max_in_flight = max(server.max_in_flight, server.in_flight)
                try:
                    if step.delay:
                        time.sleep(step.delay)
                    self._reply(step, body)
                finally:
                    with server._lock:
                        server.in_flight -= 1

            def _reply(self, step: Step, body: dict[str, Any]) -> None:
                try:
                    if step.kind == "status":
                        self._send(step.status, step.body or _error_body(step.status), step.headers)
                    elif self.path == "/v1/chat/completions":
                        self._send(200, server._openai(body, step))
                    elif self.path == "/v1/messages":
                        self._send(200, server._anthropic(body, step))
                    else:
                        self._send(404, _error_body(404))
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out and went away

            def _send(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
                data = text.encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler

    def _openai(self, body: dict[str, Any], step: Step) -> str:
        messages = body["messages"]
        user = next(m["content"] for m in messages if m["role"] == "user")
        answer = _answer_for(step, user)
        content = answer if isinstance(answer, str) else json.dumps(answer)
        prompt = "".join(str(m["content"]) for m in messages)
        tokens_in, tokens_out = self._account(prompt, content)
        return json.dumps(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": content},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": tokens_in,
                    "completion_tokens": tokens_out,
                    "total_tokens": tokens_in + tokens_out,
                },
            }
        )

    def _anthropic(self, body: dict[str, Any], step: Step) -> str:
        first = body["messages"][0]["content"]
        user = first if isinstance(first, str) else json.dumps(first)
        answer = _answer_for(step, user)
        if isinstance(answer, dict) and body.get("tools"):
            tool = body["tools"][0]["name"]
            content: list[dict[str, Any]] = [
                {"type": "tool_use", "id": "toolu_fake", "name": tool, "input": answer}
            ]
            text = json.dumps(answer)
        else:
            text = answer if isinstance(answer, str) else json.dumps(answer)
            content = [{"type": "text", "text": text}]
        prompt = str(body.get("system", "")) + "".join(
            json.dumps(m["content"]) for m in body["messages"]
        )
        tokens_in, tokens_out = self._account(prompt, text)
        return json.dumps(
            {
                "id": "msg_fake",
                "type": "message",
                "role": "assistant",
                "model": body.get("model"),
                "content": content,
                "stop_reason": "tool_use" if content[0]["type"] == "tool_use" else "end_turn",
                "usage": {"input_tokens": tokens_in, "output_tokens": tokens_out},
            }
        )


def _error_body(status: int) -> str:
    return json.dumps({"error": {"message": f"scripted {status}", "type": "fake"}})
