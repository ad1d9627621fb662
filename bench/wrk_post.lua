-- wrk script of the HTTP benchmark (bench/http.py): POST one JSON body, count every status.
--
--   wrk -t1 -c8 -d8s --latency -s bench/wrk_post.lua http://127.0.0.1:PORT/v1/captures BODY_FILE
--
-- BODY_FILE (the first argument after the URL) holds the request body. The request is built once
-- per thread (no global request function), so wrk sends it as a static request. done() prints one
-- line "statuses: 200=N ..." with every status seen over all threads, so that bench/http.py can
-- count non-2xx answers exactly (wrk's own "Non-2xx or 3xx responses" counts statuses >= 400 only).

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
   io.write("statuses:")
   for _, status in ipairs(seen) do
      io.write(string.format(" %d=%d", status, total[status]))
   end
   io.write("\n")
end
