#!/usr/bin/env python3
"""A JSON REST server on 127.0.0.1 for the InteractorsData tests and the Playground tour.

Started with no arguments, it listens on an ephemeral port (with one, on that port) and prints
"listening <port>" once it accepts connections. It exits when its standard input closes (how its starter stops it) or after LIFETIME seconds, so
it never outlives a test run. Every event a test waits for is printed as a line on standard output.

Routes (collections live in memory):
  GET    /<collection>             the collection, as a JSON array, in insertion order
  GET    /<collection>/<id>        one object, or 404
  PUT    /<collection>/<id>        stores the JSON object (Content-Type must be application/json, else 415);
                                   answers 200 with the stored object, its "revision" incremented when present;
                                   collections named "quiet..." answer 204 with an empty body instead;
                                   the id "reject" is answered 422, the id "fail" 500
  POST   /<collection>             stores the object under its "id"; 201 with the object (with ?seconds=<n>:
                                   stored at once, answered only after n seconds or when the client hangs up)
  DELETE /<collection>/<id>        204 ("quiet..." collections: 200, empty), or 404 if absent; the id "fail" is
                                   answered 500
  DELETE /<collection>             empties the collection; 204
  *      /gone[/...]               answers 404 to every method
  GET    /malformed                answers 200 with a truncated JSON body
  GET    /slow[?seconds=<n>]       prints "slow started", then waits for the client to hang up and prints
                                   "slow closed" (or answers after n seconds, 30 by default)
  *      /echo[/...]               answers 200 with the request as JSON: method, path, query, headers, body
  *      /status/<code>            (every method) answers <code> with the body "server says <code>" and a
                                   "Retry-After: 7" header (?retry_after=<value>: that value; empty: none)
  *      /flaky/<n>/<rest>         the first n requests to this path answer <status> (?status=, 503 by default;
                                   ?retry_after=<value> adds that Retry-After), later ones as /<rest>
  *      /moved/<code>/<rest>      answers <code> with "Location: /<rest>" (the query kept)
  POST   /token[?seconds=<n>]      issues a new token "t<k>" (k counts the tokens issued) as {"token": "t<k>"}
                                   and makes it the only one /auth accepts; prints "token started" first and,
                                   with seconds, waits that long before issuing (or prints "token closed" and
                                   issues none when the client hangs up first)
  *      /auth/<rest>              answers 401 "token refused" unless "Authorization: Bearer <the last token>"
                                   came, else as /<rest>; with ?refuse_when_issued=<k>, a refusal waits until k
                                   tokens were issued
  *      /big/<n>[?status=<code>]  answers 500 (or <code>) with a body of n bytes ("x" repeated)
  *      /private[/...]            answers 401 unless "Authorization: Bearer fresh" came, then as /echo
  *      /undecodable[/...]        answers 200 with a body that is not JSON
  *      /empty                    answers 200 with an empty body
  *      /redirect/<code>?to=<url> answers <code> with "Location: <url>" (the request's body read and dropped)
  *      /loop/<n>                 answers 302 to /loop/<n + 1>, for ever
  *      /hangup[/...]             reads the request, then closes the connection without an answer
  PUT, DELETE /slowly<...>/<id>    as for any collection, but the change is made at once and answered one second
                                   later, after printing "slowly <METHOD> started": a write a caller cancels
                                   after the server acted on it
  PUT    /<collection>/<id> with "If-None-Match: *"   412 if the id exists, else as a PUT (RFC 9110 §13.1.2)
  GET    /<collection>?limit=<n>[&after=<id>]          the first n objects whose id is greater than <id>, in
                                   ascending id order (ids that are integers numerically, before the others;
                                   others by their UTF-8 bytes)
  GET    /__requests               every request received so far (but these), in arrival order, as JSON: method,
                                   the raw path (still percent-encoded), the raw query, headers (names in lower
                                   case; header_names: every name as sent, repeats
                                   included), body; DELETE /__requests forgets them
  POST   /__hold/<collection>      from now on, a GET /<collection> takes its snapshot, prints "held
                                   <collection>", and answers it once DELETE /__hold/<collection> came (or after
                                   30 s): a refresh the server holds back while the test writes
  POST   /__unavailable[?status=<code>]   from now on every other request is answered <code> (503 by default),
                                   after it is recorded; DELETE /__unavailable ends it
  POST   /__refuse/<collection>/<id>[?status=<code>]   from now on a PUT or DELETE of that id is answered <code> (422
                                   by default, "refused"), after it is recorded, and changes nothing; a GET still
                                   answers; DELETE /__refuse/<collection>/<id> ends it
Every request but /__requests ones is recorded as it arrived, before it is answered.

HTTP client routes (answered_http_route, answered_idempotent_post):
  *      /challenge/<scheme>       answers 401 "challenge refused" with "WWW-Authenticate: <scheme> realm="Fake Realm""
                                   (the scheme "none": no challenge at all)
  *      /basic-auth/<user>/<pw>   httpbin's: 401 with "WWW-Authenticate: Basic realm="Fake Realm"" unless
                                   "Authorization: Basic <base64 of user:pw>" came, then 200 {"authenticated": true,
                                   "user": <user>}
  QUERY  (the shared routes)       as every method does: /echo, /status, /flaky...
  GET|PUT /token                   issues a token as POST /token does (an idempotent refresh, for retry policies)
  GET    /drip?bytes=<n>&interval=<s>   answers 200 with n bytes ("x"), one every s seconds
  POST   /idempotent/<collection>[?hangup=first]
                                   stores the object under its "id" and answers 201 with it, keeping that answer
                                   under the request's Idempotency-Key: a later POST with the same key is answered
                                   the same at once, its body left unread (a resend may come without it), and
                                   stores nothing; with hangup=first the first request of a key (or, without a key,
                                   of the collection) is stored, then its connection closed without an answer

Lines on standard input (the tests' and the tour's switch for a server that is down and comes back):
  down   closes the listening socket and every open connection: connections are refused, the collections kept;
         prints "down <n>" (n counts the times it went down)
  up     listens again on the same port; prints "up <n>"
"""
import base64
import json
import os
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, unquote, urlsplit

LIFETIME = 300
collections = {}
received = []
holds = {}
tokens = {"issued": 0, "current": None}
flaky = {}
switches = {"unavailable": None, "refused": {}}
connections = set()
idempotent_answers = {}
idempotent_hangups = set()
lock = threading.Lock()
say_lock = threading.Lock()


def say(line):
    """Prints `line` whole: `print` writes the text and its newline apart, so two handler threads printing at once
    would give "slow startedslow closed" and an empty line, and a test waiting for either would never see it."""
    with say_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle's algorithm, the body waits for the client's delayed ACK
    # of the headers, 40 ms a request on a kept-alive connection.
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", content_type="application/json"):
        self.send_response(status)
        if body:
            self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def answer_json(self, status, value):
        self.answer(status, json.dumps(value).encode())

    def parts(self):
        """The path's parts, decoded, without the /auth and /flaky/<n> prefixes (answered_shared_route's)."""
        parts = [unquote(part) for part in urlsplit(self.path).path.split("/") if part]
        while True:
            if parts[:1] == ["auth"]:
                parts = parts[1:]
            elif parts[:1] == ["flaky"] and len(parts) > 2:
                parts = parts[2:]
            else:
                return parts

    def answered_flaky(self):
        """Answers the first n requests to a /flaky/<n>/... path with the failure it asks for; whether it did."""
        raw = [part for part in urlsplit(self.path).path.split("/") if part]
        if raw[:1] == ["auth"]:
            raw = raw[1:]
        if raw[:1] != ["flaky"] or len(raw) < 3:
            return False
        path = urlsplit(self.path).path
        with lock:
            flaky[path] = flaky.get(path, 0) + 1
            failing = flaky[path] <= int(raw[1])
        if not failing:
            return False
        self.body()
        query = self.query()
        body = b"" if self.command == "HEAD" else b"flaky"
        self.send_response(int(query.get("status", "503")))
        if query.get("retry_after"):
            self.send_header("Retry-After", query["retry_after"])
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return True

    def query(self):
        return dict(parse_qsl(urlsplit(self.path).query, keep_blank_values=True))

    def refused_credential(self):
        """Answers 401 to an /auth request without the last token issued; whether it did."""
        if not urlsplit(self.path).path.startswith("/auth/"):
            return False
        with lock:
            current = tokens["current"]
        if current is not None and self.headers.get("Authorization") == "Bearer " + current:
            return False
        self.body()
        wanted = int(self.query().get("refuse_when_issued", "0"))
        for _ in range(600):
            with lock:
                if tokens["issued"] >= wanted:
                    break
            time.sleep(0.05)
        self.answer(401, b"token refused", "text/plain")
        return True

    def waited_for(self, seconds, started):
        """Prints started, then waits `seconds`; False (after printing "<what> closed") if the client hung up."""
        say(started)
        connection = self.connection
        for _ in range(int(seconds * 20)):
            readable, _, _ = select.select([connection], [], [], 0.05)
            if readable:
                try:
                    if connection.recv(1, socket.MSG_PEEK) == b"":
                        say(started.replace("started", "closed"))
                        return False
                except OSError:
                    say(started.replace("started", "closed"))
                    return False
        return True

    def body(self):
        if not hasattr(self, "_body"):
            length = int(self.headers.get("Content-Length") or 0)
            self._body = self.rfile.read(length) if length else b""
        return self._body

    def record(self):
        """Keeps the request as the wire carried it; answers /__requests itself. Whether it answered."""
        self.__dict__.pop("_body", None)  # one handler serves every request of a kept-alive connection
        request = urlsplit(self.path)
        if self.answered_switch(request):
            return True
        if request.path.startswith("/__hold/"):
            self.body()
            name = request.path[len("/__hold/"):]
            with lock:
                hold = holds.setdefault(name, threading.Event())
                if self.command == "DELETE":
                    del holds[name]
            if self.command == "DELETE":
                hold.set()
            self.answer(204)
            return True
        if request.path == "/__requests":
            self.body()
            if self.command == "DELETE":
                with lock:
                    received.clear()
                self.answer(204)
            else:
                with lock:
                    self.answer_json(200, list(received))
            return True
        entry = {
            "method": self.command,
            "path": request.path,
            "query": request.query,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "header_names": [name for name in self.headers.keys()],
            "body": self.body().decode("utf-8", "replace"),
        }
        with lock:
            received.append(entry)
        return False

    def setup(self):
        super().setup()
        with lock:
            connections.add(self.connection)

    def finish(self):
        with lock:
            connections.discard(self.connection)
        super().finish()

    def answered_switch(self, request):
        """Turns the /__unavailable and /__refuse/<collection>/<id> switches on (POST) or off (DELETE); whether it
        did."""
        if request.path != "/__unavailable" and not request.path.startswith("/__refuse/"):
            return False
        self.body()
        on = self.command != "DELETE"
        query = dict(parse_qsl(request.query))
        with lock:
            if request.path == "/__unavailable":
                switches["unavailable"] = int(query.get("status", "503")) if on else None
            else:
                name = tuple(unquote(part) for part in request.path.split("/")[2:])
                if on:
                    switches["refused"][name] = int(query.get("status", "422"))
                else:
                    switches["refused"].pop(name, None)
        self.answer(204)
        return True

    def answered_by_switch(self, parts):
        """Answers a recorded request as the switches say: every one while unavailable, a PUT or DELETE of a
        refused id; whether it did."""
        with lock:
            status = switches["unavailable"]
            if status is None and self.command in ("PUT", "DELETE") and len(parts) == 2:
                status = switches["refused"].get(tuple(parts))
        if status is None:
            return False
        self.body()
        body = b"refused" if 400 <= status < 500 else b"unavailable"
        self.answer(status, body, "text/plain")
        return True

    def answered_test_route(self, parts):
        """Routes every method shares: status, big, empty, redirect, loop. Whether it answered."""
        if len(parts) == 2 and parts[0] == "status":
            code = int(parts[1])
            body = b"" if code in (204, 304) else ("server says %d" % code).encode()
            self.body()
            self.send_response(code)
            retry_after = self.query().get("retry_after", "7")
            if retry_after:
                self.send_header("Retry-After", retry_after)
            if body:
                self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return True
        if len(parts) == 2 and parts[0] == "big":
            code = int(dict(parse_qsl(urlsplit(self.path).query)).get("status", "500"))
            self.answer(code, b"x" * int(parts[1]), "text/plain")
            return True
        if parts and parts[0] == "undecodable":
            self.answer(200, b"<html>a login page</html>", "text/html")
            return True
        if parts and parts[0] == "private":
            if self.headers.get("Authorization") != "Bearer fresh":
                self.answer(401, b"token expired", "text/plain")
            else:
                self.echo()
            return True
        if parts == ["empty"]:
            self.answer(200)
            return True
        if len(parts) >= 2 and parts[0] == "moved":
            self.body()
            request = urlsplit(self.path)
            rest = request.path.split("/", 3)[3] if request.path.count("/") >= 3 else ""
            self.send_response(int(parts[1]))
            self.send_header("Location", "/" + rest + ("?" + request.query if request.query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        if len(parts) == 2 and parts[0] in ("redirect", "loop"):
            if parts[0] == "redirect":
                code, location = int(parts[1]), dict(parse_qsl(urlsplit(self.path).query)).get("to", "/")
            else:
                code, location = 302, "/loop/%d" % (int(parts[1]) + 1)
            self.send_response(code)
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return True
        return False

    def echo(self):
        request = urlsplit(self.path)
        self.answer_json(200, {
            "method": self.command,
            "path": request.path,
            "query": dict(parse_qsl(request.query)),
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "body": self.body().decode("utf-8", "replace"),
        })

    def answered_shared_route(self, parts):
        """Answers /echo (the request as received), /gone (always 404) and the test routes for every method, after
        recording the request; whether it did."""
        if self.record() or self.answered_by_switch(parts):
            return True
        if self.refused_credential() or self.answered_flaky() or self.answered_test_route(parts):
            return True
        if self.answered_http_route(parts):
            return True
        if parts and parts[0] == "echo":
            self.echo()
            return True
        if parts and parts[0] == "gone":
            self.body()
            self.answer(404, b"gone", "text/plain")
            return True
        if parts and parts[0] == "hangup":
            self.body()
            self.close_connection = True
            return True
        return False

    def slow(self):
        if self.waited_for(float(self.query().get("seconds", "30")), "slow started"):
            self.answer_json(200, {"slow": True})

    def issue_token(self):
        self.body()
        if not self.waited_for(float(self.query().get("seconds", "0")), "token started"):
            return
        with lock:
            tokens["issued"] += 1
            tokens["current"] = "t%d" % tokens["issued"]
            token = tokens["current"]
        self.answer_json(200, {"token": token})

    # MARK: HTTP client routes (challenges, an idempotent token, a drip, idempotency keys)

    def answered_http_route(self, parts):
        """Answers /challenge, /basic-auth, GET|PUT /token and /drip, after recording; whether it did."""
        if len(parts) == 2 and parts[0] == "challenge":
            self.body()
            self.answer_challenge(parts[1])
            return True
        if len(parts) == 3 and parts[0] == "basic-auth":
            self.body()
            expected = "Basic " + base64.b64encode(("%s:%s" % (parts[1], parts[2])).encode()).decode()
            if self.headers.get("Authorization") != expected:
                self.answer_challenge("Basic")
            else:
                self.answer_json(200, {"authenticated": True, "user": parts[1]})
            return True
        if parts == ["token"] and self.command in ("GET", "PUT"):
            self.issue_token()
            return True
        if parts == ["drip"]:
            self.body()
            query = self.query()
            count, interval = int(query.get("bytes", "10")), float(query.get("interval", "0.1"))
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(count))
            self.end_headers()
            self.wfile.flush()
            for _ in range(count):
                time.sleep(interval)
                self.wfile.write(b"x")
                self.wfile.flush()
            return True
        return False

    def answer_challenge(self, scheme):
        body = b"challenge refused"
        self.send_response(401)
        if scheme != "none":
            self.send_header("WWW-Authenticate", '%s realm="Fake Realm"' % scheme)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def answered_idempotent_post(self):
        """POST /idempotent/<collection>: creates once per Idempotency-Key (see the module's docstring)."""
        request = urlsplit(self.path)
        parts = [unquote(part) for part in request.path.split("/") if part]
        if len(parts) != 2 or parts[0] != "idempotent":
            return False
        self.__dict__.pop("_body", None)
        key = self.headers.get("Idempotency-Key")
        with lock:
            replay = idempotent_answers.get((parts[1], key)) if key else None
        entry = {
            "method": self.command,
            "path": request.path,
            "query": request.query,
            "headers": {name.lower(): value for name, value in self.headers.items()},
            "header_names": [name for name in self.headers.keys()],
            "body": "" if replay is not None else self.body().decode("utf-8", "replace"),
        }
        with lock:
            received.append(entry)
        if replay is not None:
            say("idempotent replayed")
            self.close_connection = True
            self.send_response(replay[0])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(replay[1])))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(replay[1])
            return True
        value = json.loads(self.body() or b"null")
        if not isinstance(value, dict) or "id" not in value:
            self.answer(400, b"POST needs an object with an id", "text/plain")
            return True
        answer = json.dumps(value).encode()
        with lock:
            collections.setdefault(parts[1], {})[str(value["id"])] = value
            if key:
                idempotent_answers[(parts[1], key)] = (201, answer)
            hangs_up = self.query().get("hangup") == "first" and (parts[1], key) not in idempotent_hangups
            idempotent_hangups.add((parts[1], key))
        if hangs_up:
            say("idempotent hung up")
            self.close_connection = True
            return True
        self.answer(201, answer)
        return True

    def slowly_applied(self, parts):
        """For a collection named "slowly...": prints that the change was made, then answers a second later (or
        when the client hangs up first). Called once the change is made."""
        if parts and parts[0].startswith("slowly"):
            self.waited_for(1, "slowly %s started" % self.command)

    def refuses_existing(self, parts):
        """Whether a PUT carrying "If-None-Match: *" names an id that exists: RFC 9110 §13.1.2, the condition is
        false and the server answers 412. Called holding the lock, so that checking and storing are one step."""
        condition = (self.headers.get("If-None-Match") or "").strip()
        return condition == "*" and parts[1] in collections.get(parts[0], {})

    def page(self, values):
        """With ?limit=<n>[&after=<id>], the first n values whose id is greater than <id>, in ascending id order:
        integer ids numerically, before the others, which compare by their UTF-8 bytes; otherwise all of them."""
        query = self.query()
        if "limit" not in query:
            return values

        def key(value):
            identifier = value.get("id") if isinstance(value, dict) else None
            if isinstance(identifier, int) and not isinstance(identifier, bool):
                return (0, identifier, b"")
            return (1, 0, str(identifier).encode("utf-8"))

        ordered = sorted(values, key=key)
        after = query.get("after")
        if after is not None:
            numeric = any(key(value)[0] == 0 for value in values) and after.lstrip("-").isdigit()
            bound = (0, int(after), b"") if numeric else (1, 0, after.encode("utf-8"))
            ordered = [value for value in ordered if key(value) > bound]
        return ordered[: int(query["limit"])]

    def do_GET(self):
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        if parts == ["malformed"]:
            return self.answer(200, b'{"id": "broken", "text": ')
        if parts == ["slow"]:
            return self.slow()
        with lock:
            snapshot = list(collections.get(parts[0], {}).values()) if len(parts) == 1 else None
            hold = holds.get(parts[0]) if len(parts) == 1 else None
        if hold is not None:
            say("held %s" % parts[0])
            hold.wait(30)
        with lock:
            if snapshot is not None:
                return self.answer_json(200, self.page(snapshot))
            if len(parts) == 2 and parts[1] in collections.get(parts[0], {}):
                return self.answer_json(200, collections[parts[0]][parts[1]])
        self.answer(404, b"no such object", "text/plain")

    def do_PUT(self):
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        body = self.body()
        if len(parts) != 2:
            return self.answer(405, b"PUT needs /<collection>/<id>", "text/plain")
        if not (self.headers.get("Content-Type") or "").startswith("application/json"):
            return self.answer(415, b"send application/json", "text/plain")
        try:
            value = json.loads(body)
        except ValueError:
            return self.answer(400, b"not JSON", "text/plain")
        if parts[1] == "reject":
            return self.answer(422, b"rejected", "text/plain")
        if parts[1] == "fail":
            return self.answer(500, b"failed", "text/plain")
        if isinstance(value, dict) and "revision" in value:
            value["revision"] += 1
        with lock:
            if self.refuses_existing(parts):
                return self.answer(412, b"already exists", "text/plain")
            collections.setdefault(parts[0], {})[parts[1]] = value
        self.slowly_applied(parts)
        if parts[0].startswith("quiet"):
            return self.answer(204)
        self.answer_json(200, value)

    def do_POST(self):
        if self.answered_idempotent_post():
            return
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        if parts == ["token"]:
            return self.issue_token()
        value = json.loads(self.body() or b"null")
        if len(parts) != 1 or not isinstance(value, dict) or "id" not in value:
            return self.answer(400, b"POST needs /<collection> and an object with an id", "text/plain")
        with lock:
            collections.setdefault(parts[0], {})[str(value["id"])] = value
        seconds = float(self.query().get("seconds", "0"))
        if seconds and not self.waited_for(seconds, "post started"):
            return
        self.answer_json(201, value)

    def do_HEAD(self):
        """Answers a redirect as the other methods do, anything else 200, never with a body."""
        parts = self.parts()
        if self.record() or self.answered_flaky():
            return
        if len(parts) == 2 and parts[0] == "redirect":
            self.answered_test_route(parts)
            return
        self.answer(200)

    def do_OPTIONS(self):
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        self.answer(204)

    def do_PATCH(self):
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        self.body()
        self.answer(405, b"PATCH is for /echo only", "text/plain")

    def do_QUERY(self):
        """Any other method of RFC 9110 (the HTTP client's tests send QUERY): the shared routes, /echo among them."""
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        self.body()
        self.answer(405, b"QUERY is for the shared routes only", "text/plain")

    def do_DELETE(self):
        parts = self.parts()
        if self.answered_shared_route(parts):
            return
        with lock:
            if len(parts) == 1:
                collections.pop(parts[0], None)
                return self.answer(204)
            if len(parts) == 2 and parts[1] == "fail":
                return self.answer(500, b"failed", "text/plain")
            deleted = len(parts) == 2 and parts[1] in collections.get(parts[0], {})
            if deleted:
                del collections[parts[0]][parts[1]]
        if deleted:
            self.slowly_applied(parts)
            return self.answer(200 if parts[0].startswith("quiet") else 204)
        self.answer(404, b"no such object", "text/plain")


def listen(port):
    """A server on 127.0.0.1:<port> (0: one the system chooses), serving on a thread of its own."""
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True).start()
    return server


def go_down(server):
    """Stops listening and closes every open connection: a client's next request is refused."""
    server.shutdown()
    server.server_close()
    with lock:
        open_connections = list(connections)
    for connection in open_connections:
        try:
            connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def follow_stdin(server):
    """Obeys "down" and "up" lines; exits when standard input closes."""
    port = server.server_address[1]
    outages = 0
    for line in sys.stdin:
        command = line.strip()
        if command == "down" and server is not None:
            go_down(server)
            server = None
            outages += 1
            say("down %d" % outages)
        elif command == "up" and server is None:
            server = listen(port)
            say("up %d" % outages)
    os._exit(0)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = listen(port)
    threading.Timer(LIFETIME, lambda: os._exit(0)).start()
    say("listening %d" % server.server_address[1])
    follow_stdin(server)


if __name__ == "__main__":
    main()
