-- arenabench results database, schema version 18 (PRAGMA user_version = 18).
-- This file is the shape every reader (bench, bench plot and stats, users' queries)
-- relies on. results/migrate.c carries the forward migrations from every
-- earlier version: version 17 had no results.planner_spec and had
-- results.optimal_engine (planner optimal's engines, now a key of its spec);
-- version 16 had no results.head_bytes nor whole_arena (TFLM's
-- persistent records were not computed); version 15 had no results.kernel_scratch, scratch_policy nor
-- device_arena (no kernel scratch buffers in any problem); version 14 had no
-- results.claimed_status, claimed_bound nor
-- command_sha256 (a plugin's claimed status and bound were stored as status and
-- bound); version 13 had no results.origin, plugin_path, plugin_sha256,
-- planner_command, timing nor self_ns (every planner was built in and timed in
-- process); version 12 had no results.optimal_engine; version 11 had no runs.stopped; version 10 had no runs.tag nor the results' configuration
-- and problem columns (order_mode ... fixed_lower_bound), and updated a
-- graphs row's order columns when a later --order best run proved its order
-- best; version 9 had no graphs.exec_order and the other order
-- columns; version 8 had no results.inplace, results.inplace_bound or
-- placements.shares; version 7 had no runs.uuid, results.seq, replays.seq or
-- results' planner options; version 6 had no placements.name; version 5 no runs.governor and
-- runs.loadavg; version 4 had no replays tables; version 3 no timed_once, status, bound or nodes;
-- version 2 also no noisy; version 1 also no placements table and no error.
-- Integers are SQLite's signed 64 bits: bench refuses any figure above
-- 2^63-1 where it enters (options, problems, plans).
-- Sizes are bytes, times nanoseconds, timestamps UTC ISO-8601.

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,     -- e.g. 2026-12-02T16:07:17.123Z (milliseconds;
                                   -- rows before version 8 end .000Z): text order
                                   -- is time order
    git_rev     TEXT NOT NULL,     -- revision bench was built from, or "unknown"
    compiler    TEXT NOT NULL,     -- compiler id, version and flags
    cpu         TEXT NOT NULL,     -- CPU model name
    host        TEXT NOT NULL,
    command     TEXT NOT NULL,     -- the whole command line
    seed        INTEGER NOT NULL,
    governor    TEXT,              -- CPU frequency governor at start, or "unknown"
                                   -- (no cpufreq); NULL in rows before version 6
    loadavg     REAL,              -- 1-minute load average at start; NULL unknown
    uuid        TEXT NOT NULL DEFAULT '', -- the run's identity across databases: a
                                   -- random UUID (version 4) given when the run is
                                   -- created; a run from before version 8 gets a
                                   -- name-based one (version 8) when migrated
                                   -- (README "Run identity"). bench merge matches
                                   -- runs by it alone.
    tag         TEXT NOT NULL DEFAULT '', -- bench --tag: a label the user gives the
                                   -- run (stats and plot group and filter by it);
                                   -- '' for none
    stopped     TEXT               -- NULL: the run went to its end; else how a
                                   -- signal stopped it: "signal 2 during PLANNER
                                   -- on GRAPH, 3.2 s into the call; 12 of 40
                                   -- results stored" (the stopped call's plan is
                                   -- not stored: it is not the planner's answer)
);
CREATE UNIQUE INDEX runs_uuid ON runs(uuid);

-- A graphs row is one problem's source as loaded: written by the first run
-- that plans it, never changed afterwards.
CREATE TABLE graphs (
    id          INTEGER PRIMARY KEY,
    spec        TEXT NOT NULL,     -- canonical spec or file path; a patched graph's
                                   -- ends "+patch=RxC:K[:stream]"
    family      TEXT NOT NULL,
    params      TEXT NOT NULL,     -- canonical key=value,...
    fingerprint TEXT NOT NULL,     -- 16 hex digits, arena_problem_fingerprint()
    alignment   INTEGER NOT NULL,
    ops         INTEGER NOT NULL,
    tensors     INTEGER NOT NULL,
    naive_bytes INTEGER NOT NULL,
    lower_bound INTEGER NOT NULL,  -- max-live bytes in the order planned, without
                                   -- aliasing (a result's own bound is its
                                   -- inplace_bound)
    exec_order  TEXT,              -- the order the tensors' steps count in: op ids
                                   -- (insertion order 0, 1, ...) step by step,
                                   -- comma-separated; NULL: the stored order
    -- Version 10 only (NULL from version 11 on, where each result carries
    -- its order search's outcome: results.order_status ... order_ns):
    order_status TEXT,
    stored_order_peak INTEGER,
    order_bound INTEGER,
    order_states INTEGER,
    order_ns    INTEGER,
    UNIQUE (spec, fingerprint, alignment)
);

CREATE TABLE results (
    id             INTEGER PRIMARY KEY,
    run_id         INTEGER NOT NULL REFERENCES runs(id),
    graph_id       INTEGER NOT NULL REFERENCES graphs(id),
    planner        TEXT NOT NULL,
    arena_bytes    INTEGER,        -- NULL when the plan failed
    ratio_lb       REAL,
    saving         REAL,
    frag_peak      REAL,
    frag_mean      REAL,
    plan_ns_median REAL,
    plan_ns_mean   REAL,
    plan_ns_stddev REAL,
    iterations     INTEGER,
    scratch_bytes  INTEGER,
    valid          INTEGER NOT NULL, -- 1 valid, 0 invalid or failed
    error          TEXT,             -- validator's or planner's message, else NULL
    noisy          INTEGER NOT NULL DEFAULT 0, -- 1: stddev / mean above 10 %, or
                                     -- a single timed call; not a figure to quote
    timed_once     INTEGER NOT NULL DEFAULT 0, -- 1: a search planner, timed by
                                     -- the wall time of one call
    status         TEXT,             -- optimal, feasible, infeasible, limit: proven by
                                     -- bench or a built-in engine (version 15); NULL
                                     -- when the plan is not valid
    bound          INTEGER,          -- proven lower bound (>= graphs.lower_bound)
    nodes          INTEGER,          -- search nodes spent, 0 for heuristics
    seq            INTEGER NOT NULL DEFAULT 0, -- 1, 2, ...: the order in which its
                                     -- run stored its results; (run, seq) is the
                                     -- result's key across databases (merge)
    -- The planner options that change a result, set for search planners
    -- (kind "search": they read them) and NULL for every other planner:
    time_limit     REAL,             -- seconds of wall time; 0 = none
    node_limit     INTEGER,          -- 0 = the planner's default
    planner_seed   INTEGER,          -- the seed the planner was given (--seed)
    capacity       INTEGER,          -- bytes; 0 = minimise (decision mode otherwise)
    inplace        TEXT NOT NULL DEFAULT 'none', -- the in-place rule (bench --inplace):
                                     -- none, elementwise, depthwise
    inplace_bound  INTEGER,          -- the lower bound of the problem planned: max-live
                                     -- bytes once the rule's alias chains are merged
                                     -- (= graphs.lower_bound under none); ratio_lb and
                                     -- frag_peak are taken against it
    -- The rest of the configuration (version 11; graphs/transforms.h): with
    -- inplace and graphs.alignment, the transformations that made the problem.
    order_mode     TEXT NOT NULL DEFAULT 'stored', -- bench --order: stored, best
    order_budget   INTEGER,          -- --order-states with best (the search's state
                                     -- budget as used); NULL with stored
    patch          TEXT NOT NULL DEFAULT '', -- bench --patch: RxC:K[:stream]; '' none
    -- The problem planned and its bounds (version 11):
    problem_fingerprint TEXT NOT NULL DEFAULT '', -- 16 hex digits over its sizes,
                                     -- lifetimes and alias candidates
                                     -- (arena_problem_fingerprint_planned); rows
                                     -- migrated from version 10 under an in-place rule:
                                     -- graphs.fingerprint || '/' || inplace
    fixed_lower_bound INTEGER,       -- the fixed-order bound: max-live bytes of the
                                     -- graph untransformed (stored order, no rule,
                                     -- no patch); NULL where a migrated row cannot
                                     -- know it
    -- With order_mode best on a graph (else NULL): the order search's outcome
    -- (graphs/exec_order.h), under the in-place rule when one is given.
    order_status   TEXT,             -- certified (the stored order, proven without
                                     -- search), optimal (searched, proven), limit
                                     -- (state budget hit: a heuristic order)
    stored_order_peak INTEGER,       -- the stored order's bound
    order_bound    INTEGER,          -- proven: no execution order has a lower bound
                                     -- (= inplace_bound unless status limit)
    order_states   INTEGER,          -- downsets the search stored (0: none)
    order_ns       INTEGER,          -- wall time of the order transform
    -- Where the planner comes from (version 14; bench --planner): two results
    -- of one planner name from two origins are two planners to stats and plot.
    origin         TEXT NOT NULL DEFAULT 'built-in', -- built-in, plugin (a shared
                                     -- object, plugin:PATH.so) or cmd (an external
                                     -- program, cmd:NAME=COMMAND)
    plugin_path    TEXT,             -- plugin: the shared object's absolute path
    plugin_sha256  TEXT,             -- plugin: SHA-256 of the file loaded, 64 hex
                                     -- digits (the plugin's identity)
    planner_command TEXT,            -- cmd: the command as given (its identity)
    timing         TEXT NOT NULL DEFAULT 'in-process', -- how plan_ns_* were taken:
                                     -- in-process (Google Benchmark; a search
                                     -- planner by one call), isolated (calls timed
                                     -- inside a forked child, bench --isolate),
                                     -- process (cmd: the wall time of the program's
                                     -- process group, one call)
    self_ns        INTEGER,          -- cmd: the planning time the program reported
                                     -- about itself (plan_ns=N on stderr); NULL none
    -- What a planner from outside claims beyond what bench proved (version 15,
    -- bench/claims.h). status and bound above hold proofs only: bench's own (the
    -- max-live bound; optimal when a plan meets it, infeasible when it is above
    -- the capacity) or a built-in engine's. A plugin's word is kept here,
    -- labelled, and never divides another planner's arena.
    claimed_status TEXT,             -- the status it gave (optimal, infeasible,
                                     -- limit, feasible) when it claimed more than
                                     -- bench proved; NULL: no such claim
    claimed_bound  INTEGER,          -- the lower bound it gave; NULL: none
    command_sha256 TEXT,             -- cmd: SHA-256 of planner_command, 64 hex digits
                                     -- (its identity: two commands under one name are
                                     -- two planners to stats and plot); NULL otherwise
    -- The kernels' scratch buffers in the problem (version 16; bench --scratch,
    -- graphs/scratch.h), part of the configuration like inplace:
    kernel_scratch TEXT NOT NULL DEFAULT 'none', -- none, cmsis-nn:m4, cmsis-nn:m55,
                                     -- reference
    scratch_policy TEXT NOT NULL DEFAULT 'lifetime', -- lifetime (one buffer per op,
                                     -- alive at its step) or tail (one buffer of the
                                     -- largest request, alive throughout)
    device_arena   INTEGER,          -- the arena TFLM allocates for this plan shipped
                                     -- as its offline plan: the tensors fixed, the
                                     -- scratch buffers placed by TFLM's
                                     -- GreedyMemoryPlanner (planners/device.h); NULL
                                     -- without scratch buffers or under the tail
    -- TFLM's persistent records beside the planned section on a 32-bit Cortex-M
    -- (version 17; graphs/tflm_head.h), computed under a --scratch rule for a
    -- graph; NULL otherwise:
    head_bytes     INTEGER,          -- the records after AllocateTensors
    whole_arena    INTEGER,          -- the arena TFLM needs in all: head + the
                                     -- device arena (else the plan's arena), or
                                     -- what planning needs when that is more
    -- The planner's identity beside its name and origin (version 18): its
    -- canonical spec, NAME:key=value,... with every key of its table in order,
    -- defaults included (bench --planner NAME:k=v), or NAME for a planner
    -- without keys. Two specs are two planners to stats and plot. Rows of
    -- version 17 and before: the spec their run used (optimal's engine from
    -- the former results.optimal_engine, a seed key from planner_seed, every
    -- other key its default).
    planner_spec   TEXT NOT NULL DEFAULT ''
);

CREATE TABLE placements (
    result_id INTEGER NOT NULL REFERENCES results(id),
    tensor    INTEGER NOT NULL,    -- tensor id in the problem
    size      INTEGER NOT NULL,
    first     INTEGER NOT NULL,
    last      INTEGER NOT NULL,
    offset    INTEGER NOT NULL,
    name      TEXT,                -- the tensor's name (graph file, family or
                                   -- .tflite tensor name, CSV id); NULL for a
                                   -- problem family and rows of schema 5 and before
    shares    INTEGER,             -- the tensor whose bytes this one takes (an in-place
                                   -- op writes it over that input); NULL otherwise
    PRIMARY KEY (result_id, tensor)
) WITHOUT ROWID;

CREATE INDEX results_run ON results(run_id);
CREATE UNIQUE INDEX results_run_seq ON results(run_id, seq);
CREATE INDEX results_graph ON results(graph_id);

-- Real allocators replaying a graph's problem (bench --replay, schema
-- version 5): one row per allocator x graph x run; every frame in
-- replay_frames. Footprints are the allocator's own figure (footprint_source
-- says which: glibc mallinfo2.arena+hblkhd, jemalloc stats.resident, mimalloc
-- mi_process_info.current_commit); resident_peak is the OS's figure for the
-- same process (/proc/self/statm, above the process's resident bytes before
-- the first frame), the same for every allocator.
CREATE TABLE replays (
    id               INTEGER PRIMARY KEY,
    run_id           INTEGER NOT NULL REFERENCES runs(id),
    graph_id         INTEGER NOT NULL REFERENCES graphs(id),
    allocator        TEXT NOT NULL,    -- glibc, jemalloc, mimalloc
    version          TEXT NOT NULL,    -- as the allocator reports it
    footprint_source TEXT NOT NULL,    -- how the footprint figures are read
    frames           INTEGER NOT NULL, -- F, frames replayed
    calls_per_frame  INTEGER NOT NULL, -- malloc + free calls in each frame
    ns_per_call      REAL,             -- median over F timed frames of time / calls
    live_peak        INTEGER NOT NULL, -- most requested bytes live at one step
    baseline_bytes   INTEGER NOT NULL, -- footprint before the first frame
    footprint_first  INTEGER NOT NULL, -- peak footprint in frame 1
    footprint_last   INTEGER NOT NULL, -- peak footprint in frame F
    footprint_peak   INTEGER NOT NULL, -- peak footprint over all frames
    extent_peak      INTEGER NOT NULL, -- most bytes from the lowest live block's start
                                       -- to the highest one's end, over all frames
    resident_peak    INTEGER NOT NULL, -- most resident bytes above the baseline
    frag_first       REAL NOT NULL,    -- 1 - live_peak / footprint_first
    frag_last        REAL NOT NULL,    -- 1 - live_peak / footprint_last
    seq              INTEGER NOT NULL DEFAULT 0 -- 1, 2, ... within its run, as results.seq
);

CREATE TABLE replay_frames (
    replay_id      INTEGER NOT NULL REFERENCES replays(id),
    frame          INTEGER NOT NULL, -- 1 .. frames
    calls          INTEGER NOT NULL,
    footprint_peak INTEGER NOT NULL,
    extent_peak    INTEGER NOT NULL,
    resident_peak  INTEGER NOT NULL,
    PRIMARY KEY (replay_id, frame)
) WITHOUT ROWID;

CREATE INDEX replays_graph ON replays(graph_id);
CREATE UNIQUE INDEX replays_run_seq ON replays(run_id, seq);
