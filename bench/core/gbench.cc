// gbench.cc — the C API of gbench.h over Google Benchmark (the only C++ in
// arenabench). It forwards flags, registers C callbacks and copies each
// benchmark's aggregates out of a reporter; all decisions live in C.
#include "bench/core/gbench.h"

#include <benchmark/benchmark.h>
#include <regex.h>

#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

struct entry {
    std::string name;
    arena_gbench_spec spec;
    arena_gbench_stats stats;
    bool done;
};

std::vector<entry> entries;
std::map<std::string, size_t> by_name;
std::vector<std::string> flag_storage; // Google Benchmark keeps argv[0]

void set_err(char *err, size_t len, const std::string &msg)
{
    if (err && len) std::snprintf(err, len, "%s", msg.c_str());
}

void finish(entry &e)
{
    if (e.done) return;
    e.done = true;
    if (e.spec.done) e.spec.done(e.spec.ctx, &e.stats);
}

// Copies runs into the entries' stats. Google Benchmark reports a benchmark's
// repetitions in one call and, when at least two succeeded, its aggregates
// in the next: an entry is complete after its aggregates or, with fewer than
// two good repetitions, after its repetitions.
class collector : public benchmark::BenchmarkReporter {
public:
    bool ReportContext(const Context &) override { return true; }

    void ReportRuns(const std::vector<Run> &runs) override
    {
        std::vector<size_t> touched;
        bool aggregates = false;
        for (const Run &r : runs) {
            auto it = by_name.find(r.run_name.function_name);
            if (it == by_name.end()) continue;
            entry &e = entries[it->second];
            arena_gbench_stats &s = e.stats;
            s.measured = 1;
            if (touched.empty() || touched.back() != it->second) touched.push_back(it->second);
            if (r.run_type == Run::RT_Aggregate) {
                aggregates = true;
                double t = r.GetAdjustedRealTime();
                if (r.aggregate_name == "median") s.median_ns = t;
                else if (r.aggregate_name == "mean") s.mean_ns = t;
                else if (r.aggregate_name == "stddev") s.stddev_ns = t;
            } else if (r.error_occurred) {
                s.error = 1;
                std::snprintf(s.message, sizeof s.message, "%s", r.error_message.c_str());
            } else {
                s.repetitions++;
                s.iterations += static_cast<uint64_t>(r.iterations);
                s.median_ns = s.mean_ns = r.GetAdjustedRealTime();
            }
        }
        for (size_t i : touched)
            if (aggregates || entries[i].stats.repetitions < 2) finish(entries[i]);
    }
};

// Google Benchmark's name for an entry: its name, then "iterations:N" and
// "repeats:N" when the entry fixes them.
std::string full_name(const entry &e)
{
    std::string n = e.name;
    if (e.spec.iterations) n += "/iterations:" + std::to_string(e.spec.iterations);
    if (e.spec.repetitions > 0) n += "/repeats:" + std::to_string(e.spec.repetitions);
    return n;
}

// Whether --benchmark_filter matches any entry, by Google Benchmark's rule
// (an extended regex searched in the name; "" and "all" match all; a
// leading '-' negates). When Google Benchmark matches nothing it prints a
// line of its own, so a filter that matches nothing is caught before it
// runs: bench then says so in one line. A filter that does not compile is
// left to Google Benchmark.
bool any_match()
{
    std::string spec = benchmark::GetBenchmarkFilter();
    if (spec.empty() || spec == "all") return !entries.empty();
    bool negative = spec[0] == '-';
    if (negative) spec.erase(0, 1);
    // POSIX extended regex, as Google Benchmark's own on this platform (and
    // free of libstdc++ <regex>'s sanitizer-build warnings).
    regex_t re;
    if (regcomp(&re, spec.c_str(), REG_EXTENDED | REG_NOSUB) != 0) return true;
    bool any = false;
    for (const entry &e : entries) {
        bool hit = regexec(&re, full_name(e).c_str(), 0, nullptr, 0) == 0;
        if (hit != negative) {
            any = true;
            break;
        }
    }
    regfree(&re);
    return any;
}

} // namespace

extern "C" int arena_gbench_init(int argc, char **argv, char *err, size_t errlen)
{
    flag_storage.assign(1, "bench");
    for (int i = 1; i < argc; i++) flag_storage.push_back(argv[i]);
    std::vector<char *> args;
    for (std::string &s : flag_storage) args.push_back(&s[0]);
    args.push_back(nullptr);
    int n = static_cast<int>(flag_storage.size());
    benchmark::Initialize(&n, args.data());
    if (n > 1) {
        set_err(err, errlen, std::string("unknown or malformed Google Benchmark flag '") +
                                 args[1] + "'");
        return -1;
    }
    return 0;
}

extern "C" int arena_gbench_register(const struct arena_gbench_spec *spec)
{
    if (!spec || !spec->name || !spec->name[0] || !spec->iter) return -1;
    if (by_name.count(spec->name)) return -1;
    entry e;
    e.name = spec->name;
    e.spec = *spec;
    e.spec.name = nullptr;
    std::memset(&e.stats, 0, sizeof e.stats);
    double nan = std::numeric_limits<double>::quiet_NaN();
    e.stats.median_ns = e.stats.mean_ns = e.stats.stddev_ns = nan;
    e.done = false;
    size_t index = entries.size();
    entries.push_back(e);
    by_name[e.name] = index;

    benchmark::internal::Benchmark *b = benchmark::RegisterBenchmark(
        e.name.c_str(), [index](benchmark::State &state) {
            // Look the entry up by index: the vector may have grown.
            const arena_gbench_spec &sp = entries[index].spec;
            if (sp.setup && sp.setup(sp.ctx) != 0) state.SkipWithError("setup failed");
            for (auto _ : state) {
                if (sp.iter(sp.ctx) != 0) {
                    state.SkipWithError("stopped by the benchmark");
                    break;
                }
            }
        });
    b->Unit(benchmark::kNanosecond);
    if (spec->iterations) b->Iterations(static_cast<benchmark::IterationCount>(spec->iterations));
    if (spec->repetitions > 0) b->Repetitions(spec->repetitions);
    return 0;
}

extern "C" int arena_gbench_run(char *err, size_t errlen)
{
    collector c;
    size_t matched = any_match() ? benchmark::RunSpecifiedBenchmarks(&c) : 0;
    for (entry &e : entries) finish(e);
    if (matched > static_cast<size_t>(std::numeric_limits<int>::max())) {
        set_err(err, errlen, "too many benchmarks");
        return -1;
    }
    return static_cast<int>(matched);
}

extern "C" void arena_gbench_clear(void)
{
    benchmark::ClearRegisteredBenchmarks();
    entries.clear();
    by_name.clear();
}
