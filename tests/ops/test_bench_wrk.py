"""bench/http.py reads a wrk run's figures from the JSON line bench/wrk_post.lua's done() prints
after wrk's own text report (no wrk needed here: the outputs below are wrk 4.1's, recorded)."""

from __future__ import annotations

import pytest

from bench.http import parse_wrk

# wrk -t1 -c2 -d1s --latency -s bench/wrk_post.lua against a server answering 501 to every POST.
ALL_501 = """\
Running 1s test @ http://127.0.0.1:45273/
  1 threads and 2 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.21ms    1.11ms   8.69ms   87.23%
    Req/Sec     1.75k   180.71     2.02k    50.00%
  Latency Distribution
     50%  771.00us
     75%    1.43ms
     90%    2.68ms
     99%    5.36ms
  1747 requests in 1.00s, 0.92MB read
  Non-2xx or 3xx responses: 1747
Requests/sec:   1741.58
Transfer/sec:      0.92MB
{"requests":1747,"duration_us":1003113,"bytes":969585,"errors":{"connect":0,"read":0,"write":0,"status":1747,\
"timeout":0},"latency_us":{"min":158,"max":8687,"mean":1207.4040755467197,"stdev":1112.9650044753264,\
"percentiles":{"50":771,"75":1433,"90":2683,"99":5364}},"statuses":{"501":1747}}
"""

# The same against a server that closes every connection unanswered.
READ_ERRORS = """\
Running 1s test @ http://127.0.0.1:45999/
  1 threads and 2 connections
  Socket errors: connect 0, read 10808, write 0, timeout 0
Requests/sec:      0.00
Transfer/sec:       0.00B
{"requests":0,"duration_us":1003200,"bytes":0,"errors":{"connect":0,"read":10808,"write":0,"status":0,\
"timeout":0},"latency_us":{"min":0,"max":0,"mean":0,"stdev":0,"percentiles":{"50":0,"75":0,"90":0,"99":0}},\
"statuses":{}}
"""

# Made up in the lua's format: 200s, a redirect and a server error, one timeout.
MIXED = (
    '{"requests":1000,"duration_us":2000000,"bytes":123456,"errors":{"connect":0,"read":0,"write":0,"status":1,'
    '"timeout":1},"latency_us":{"min":100,"max":9000,"mean":1500.5,"stdev":300.25,'
    '"percentiles":{"50":1250,"75":1500,"90":2000,"99":4500}},"statuses":{"200":998,"304":1,"500":1}}'
)


def test_the_figures_of_a_run_come_from_the_lua_report() -> None:
    run = parse_wrk(ALL_501)
    assert run == {
        "rps": pytest.approx(1741.58, abs=0.005),  # what wrk printed as Requests/sec
        "requests": 1747,
        "p50_ms": 0.771,
        "p99_ms": 5.364,
        "latency_ms": {50: 0.771, 75: 1.433, 90: 2.683, 99: 5.364},
        "socket_errors": {"connect": 0, "read": 0, "write": 0, "timeout": 0},
        "wrk_non_2xx_3xx": 1747,
        "statuses": {501: 1747},
        "non_2xx": 1747,
        "errors": 1747,
    }


def test_socket_errors_count_as_errors() -> None:
    run = parse_wrk(READ_ERRORS)
    assert run["socket_errors"] == {"connect": 0, "read": 10808, "write": 0, "timeout": 0}
    assert (run["requests"], run["rps"], run["errors"]) == (0, 0.0, 10808)


def test_every_answer_other_than_a_2xx_is_an_error_although_wrk_counts_only_4xx_and_5xx() -> None:
    run = parse_wrk("Running 2s test @ http://127.0.0.1:1/\n" + MIXED + "\n")
    assert run["rps"] == 500.0
    assert run["p50_ms"] == 1.25
    assert (run["wrk_non_2xx_3xx"], run["non_2xx"], run["errors"]) == (1, 2, 3)


def test_a_run_without_the_lua_report_is_refused() -> None:
    text_only = ALL_501[: ALL_501.index('{"requests"')]
    assert text_only.endswith("Transfer/sec:      0.92MB\n")
    with pytest.raises(RuntimeError, match="printed no JSON report"):
        parse_wrk(text_only)
