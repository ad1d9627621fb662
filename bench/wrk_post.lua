-- wrk script of the HTTP benchmarks (bench/http.py, bench/slow_clients.py): POST one JSON body,
-- count every status, and report the run as JSON.
--
--   wrk -t1 -c8 -d8s --latency -s bench/wrk_post.lua http://127.0.0.1:PORT/v1/captures BODY_FILE
--
-- BODY_FILE (the first argument after the URL) holds the request body. The request is built once
-- per thread (no global request function), so wrk sends it as a static request. done() prints, after
-- wrk's own text report, one line of JSON that bench/report.py's wrk_report() reads:
--
--   {"requests": N, "duration_us": N, "bytes": N,
--    "errors": {"connect": N, "read": N, "write": N, "status": N, "timeout": N},
--    "latency_us": {"min": N, "max": N, "mean": X, "stdev": X,
--                   "percentiles": {"50": N, "75": N, "90": N, "99": N}},
--    "statuses": {"200": N, ...}}
--
-- "errors" are wrk's own counts ("status": answers with a status of 400 or more); "statuses" counts
-- every status seen over all threads, so that non-2xx answers are counted exactly.

local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   local path = args[1]
   if path == nil then
      error("usage: wrk ... -s wrk_post.lua URL BODY_FILE")
   end
   local file = assert(io.open(path, "rb"))
   wrk.body = file:read("*a")
   file:close()
   wrk.method = "POST"
   wrk.headers["Content-Type"] = "application/json"
   statuses = {}
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
end

-- The members of a JSON object, from a list of {key, number-as-JSON} pairs, in that order.
local function object(members)
   local parts = {}
   for _, member in ipairs(members) do
      table.insert(parts, string.format("\"%s\":%s", member[1], member[2]))
   end
   return "{" .. table.concat(parts, ",") .. "}"
end

local function int(n)
   return string.format("%d", n)
end

local function real(x)
   return string.format("%.17g", x)
end

function done(summary, latency, requests)
   local total = {}
   for _, thread in ipairs(threads) do
      for status, n in pairs(thread:get("statuses")) do
         total[status] = (total[status] or 0) + n
      end
   end
   local seen = {}
   for status, _ in pairs(total) do
      table.insert(seen, status)
   end
   table.sort(seen)
   local by_status = {}
   for _, status in ipairs(seen) do
      table.insert(by_status, {tostring(status), int(total[status])})
   end
   local percentiles = {}
   for _, p in ipairs({50, 75, 90, 99}) do
      table.insert(percentiles, {tostring(p), int(latency:percentile(p))})
   end
   local e = summary.errors
   io.write(object({
      {"requests", int(summary.requests)},
      {"duration_us", int(summary.duration)},
      {"bytes", int(summary.bytes)},
      {"errors", object({
         {"connect", int(e.connect)},
         {"read", int(e.read)},
         {"write", int(e.write)},
         {"status", int(e.status)},
         {"timeout", int(e.timeout)},
      })},
      {"latency_us", object({
         {"min", int(latency.min <= latency.max and latency.min or 0)}, -- wrk starts min at 2^64 - 1
         {"max", int(latency.max)},
         {"mean", real(latency.mean)},
         {"stdev", real(latency.stdev)},
         {"percentiles", object(percentiles)},
      })},
      {"statuses", object(by_status)},
   }), "\n")
end
