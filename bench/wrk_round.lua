-- One round of bench/load.py run by wrk (https://github.com/wg/wrk), a load generator in C.
--
-- Run by bench/load.py as `wrk -t1 -c N -d S --timeout 10s -s bench/wrk_round.lua URL -- PLAN`,
-- PLAN being a file bench/load.py writes (one "key value" per line):
--   mode healthz|view|read|price|edit  what to request
--   connections N                    as wrk's -c (reconnections are spread over them)
--   header Name: value               a header of every request (cookie, HX-Request)
--   roster ID VERSION                a roster to view or edit, and the version it is at
--   form K BODY                      the form of change K (of 150), but for the version it is
--                                    made from, which goes first
--   body PATH                        the file holding the price request's JSON
--
-- Every answer must be a 200: any other status is counted and reported in done(). An edit
-- answer names the roster and its new version; the roster is then free for its next change.
-- wrk does not say which connection a response came in on, so a change takes any free roster
-- (there are as many rosters as connections) and no two changes of one roster are ever in
-- flight together.

local mode, connections, headers = nil, 1, {}
local rosters, versions, forms, free = {}, {}, {}, {}
local price_body = nil
local sent, every = 0, 100
local second, sent_at_second = 0, 0
-- Globals, so that done() can read them from the thread (thread:get).
answered, refused, first_refusal = 0, 0, ""

function init(args)
  for line in io.lines(args[1]) do
    local key, value = line:match("^(%S+) (.*)$")
    if key == "mode" then
      mode = value
    elseif key == "connections" then
      connections = tonumber(value)
    elseif key == "header" then
      local name, text = value:match("^([^:]+): (.*)$")
      headers[name] = text
    elseif key == "roster" then
      local id, version = value:match("^(%S+) (%d+)$")
      rosters[#rosters + 1] = id
      versions[id] = tonumber(version)
      free[#free + 1] = id
    elseif key == "form" then
      local k, body = value:match("^(%d+) (.*)$")
      forms[tonumber(k)] = body
    elseif key == "body" then
      local file = assert(io.open(value, "rb"))
      price_body = file:read("*a")
      file:close()
    end
  end
end

-- Each connection is closed about every two seconds, as a browser's keep-alive connection
-- ends too. Per connection wrk cannot tell, so one request in `every` asks to close, `every`
-- set each second from the last second's rate.
local function closing()
  sent = sent + 1
  local now = os.time()
  if now ~= second then
    local rate = sent - sent_at_second
    if second ~= 0 then
      every = math.max(1, math.floor(2 * rate / connections))
    end
    second, sent_at_second = now, sent
  end
  return sent % every == 0
end

local function with_close(extra)
  local all = {}
  for name, text in pairs(headers) do all[name] = text end
  for name, text in pairs(extra or {}) do all[name] = text end
  if closing() then all["Connection"] = "close" end
  return all
end

local viewed = 0

function request()
  if mode == "healthz" then
    return wrk.format("GET", "/healthz", with_close())
  elseif mode == "view" then
    viewed = viewed % #rosters + 1
    return wrk.format("GET", "/r/" .. rosters[viewed], with_close())
  elseif mode == "read" then
    viewed = viewed % #rosters + 1
    return wrk.format("GET", "/api/v1/rosters/" .. rosters[viewed], with_close())
  elseif mode == "price" then
    return wrk.format("POST", "/api/v1/price",
                      with_close({["Content-Type"] = "application/json"}), price_body)
  end
  -- An edit: the roster that waited longest, its change numbered by the version it is at,
  -- so that each change sets a unit's figures to a number other than the one it has.
  local id = table.remove(free, 1) or rosters[1]
  local version = versions[id]
  local body = "version=" .. version .. "&" .. forms[version % 150]
  return wrk.format("POST", "/r/" .. id .. "/edit",
                    with_close({["Content-Type"] = "application/x-www-form-urlencoded"}), body)
end

function response(status, _, body)
  if status ~= 200 then
    refused = refused + 1
    if first_refusal == "" then first_refusal = status .. " " .. body:sub(1, 200) end
    return
  end
  answered = answered + 1
  if mode == "edit" then
    local id = body:match('action="/r/([^/"]+)/edit"')
    local version = tonumber(body:match('name="version" value="(%d+)"'))
    if id and version and versions[id] then
      versions[id] = version
      free[#free + 1] = id
    else
      refused = refused + 1
      if first_refusal == "" then first_refusal = "an edit answer without roster or version" end
    end
  end
end

local threads = {}

function setup(thread)
  threads[#threads + 1] = thread
end

-- What bench/load.py reads back: wrk's CPU time, the answers, the refusals (and the first of
-- them), wrk's own errors, and the latency at every tenth of a percentile (microseconds), from which it pools
-- the rounds' latencies as it does the Python generator's.
function done(summary, latency, _)
  -- wrk's own CPU time in the round, before the quantiles below are worked out.
  io.write(string.format("cpu %.6f\n", os.clock()))
  local ok, bad, why = 0, 0, ""
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("answered")
    bad = bad + thread:get("refused")
    if why == "" then why = thread:get("first_refusal") end
  end
  local e = summary.errors
  io.write(string.format("answers %d\nrefused %d\nerrors %d %d %d %d %d\n", ok, bad,
                         e.connect, e.read, e.write, e.status, e.timeout))
  io.write("first_refusal ", (why:gsub("\n", " ")), "\n")
  local points = {}
  for k = 1, 1000 do points[k] = latency:percentile(k / 10) end
  io.write("quantiles ", table.concat(points, " "), "\n")
end
