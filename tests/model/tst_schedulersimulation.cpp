// SPDX-License-Identifier: GPL-3.0-or-later
// The scheduler simulation against closed forms and hand-worked schedules: an M/M/c queue
// (Erlang C), a four-job EASY backfill example, leaf-aware placement and failure losses.
#include "model/core/inputerror.h"
#include "model/plan/plan.h"
#include "model/plan/planio.h"
#include "model/plan/scenarios.h"
#include "model/planning/portfoliosimulation.h"
#include "model/planning/scenariocomparison.h"
#include "model/planning/simulationsummary.h"
#include "model/scheduling/clusterscheduler.h"
#include "model/scheduling/schedulersimulation.h"
#include "model/scheduling/workloadtrace.h"
#include "testsupport.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace cp::model;

namespace {
using cp::test::closeRelative;

constexpr double hour = 3600;

SchedulerCluster servers(int count, int gpusEach, int perLeaf)
{
    SchedulerCluster cluster;
    cluster.gpusPerServer.assign(count, gpusEach);
    cluster.serversPerLeaf = perLeaf;
    return cluster;
}

/** Four jobs, one class each, on 4 servers of 8 GPUs (see easyBackfillByHand). */
std::vector<JobClass> fourClasses()
{
    std::vector<JobClass> classes(4);
    const char *names[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; ++i)
        classes[i].name = names[i];
    return classes;
}

std::vector<TraceJob> fourJobs()
{
    return {{0 * hour, 10 * hour, 24, 0},
            {1 * hour, 5 * hour, 32, 1},
            {2 * hour, 4 * hour, 8, 2},
            {3 * hour, 20 * hour, 8, 3}};
}

} // namespace

class TestSchedulerSimulation : public QObject
{
    Q_OBJECT

private slots:
    void erlangCByHand()
    {
        // Two servers, a = lambda/mu = 1: B(1) = 1/2, B(2) = (1 x 1/2)/(2 + 1/2) = 0.2,
        // rho = 0.5, C = 0.2 / (1 - 0.5 x 0.8) = 1/3, Wq = C / (c mu - lambda) = (1/3) / (2 - 1)
        // service times.
        QVERIFY(closeRelative(erlangCMeanWaitSeconds(2, 1.0 / 3600, 3600), 3600.0 / 3));
        QVERIFY(std::isinf(erlangCMeanWaitSeconds(2, 2.0 / 3600, 3600)));
    }

    void fifoOfSingleServerJobsIsAnMmcQueue()
    {
        // 16 servers, one-server jobs of exponential 1 h runtimes arriving at 12.8 per hour:
        // an M/M/16 queue at 80% load. Erlang C gives the mean wait; 20,000 simulated hours
        // (about 256,000 jobs) must land within 5% of it.
        SchedulerCluster cluster = servers(16, 8, 16);
        JobClass job;
        job.name = "one server";
        job.gpus = 8;
        job.meanRuntimeSeconds = hour;
        job.runtimeCv = 1;
        job.arrivalsPerSecond = 12.8 / hour;
        SimulationOptions options;
        options.policy = SchedulingPolicy::Fifo;
        options.horizonSeconds = 20000 * hour;
        options.warmupSeconds = 100 * hour;
        options.seed = 7;
        const SimulationResult r = simulateScheduler(cluster, {job}, {}, options);
        const double expected = erlangCMeanWaitSeconds(16, job.arrivalsPerSecond, hour);
        QVERIFY2(std::abs(r.classes[0].meanWaitSeconds / expected - 1) < 0.05,
                 qPrintable(QStringLiteral("simulated %1 s, Erlang C %2 s")
                                .arg(r.classes[0].meanWaitSeconds)
                                .arg(expected)));
        // Busy servers: the offered load, 12.8 / 16 = 0.8 (within 2%).
        QVERIFY(std::abs(r.utilisation / 0.8 - 1) < 0.02);
        QCOMPARE(r.usefulUtilisation, r.utilisation);
        QCOMPARE(r.interruptions, 0LL);
    }

    void easyBackfillByHand()
    {
        // 4 servers x 8 GPUs. A (24 GPUs, 10 h) starts at 0. B (32 GPUs, 5 h) comes at 1 h and
        // must wait for A: its reservation is A's end at 10 h, with 8 + 24 - 32 = 0 GPUs to
        // spare. C (8 GPUs, 4 h) comes at 2 h and ends at 6 h, before 10 h: backfilled at once.
        // D (8 GPUs, 20 h) comes at 3 h: it would end after 10 h and the reservation spares
        // nothing, so it waits; B runs 10-15 h, D 15-35 h.
        // Waits: A 0, B 9 h, C 0, D 12 h. Strict FIFO holds C behind B: C waits 13 h.
        SimulationOptions options;
        options.horizonSeconds = 40 * hour;
        const SimulationResult easy
            = simulateScheduler(servers(4, 8, 4), fourClasses(), fourJobs(), options);
        QCOMPARE(easy.classes[0].meanWaitSeconds, 0.0);
        QCOMPARE(easy.classes[1].meanWaitSeconds, 9 * hour);
        QCOMPARE(easy.classes[2].meanWaitSeconds, 0.0);
        QCOMPARE(easy.classes[3].meanWaitSeconds, 12 * hour);
        // 24 x 10 + 32 x 5 + 8 x 4 + 8 x 20 = 592 GPU-hours of 32 x 40 = 1,280.
        QVERIFY(closeRelative(easy.utilisation, 592.0 / 1280));
        QCOMPARE(easy.jobsCompleted, 4LL);
        options.policy = SchedulingPolicy::Fifo;
        const SimulationResult fifo
            = simulateScheduler(servers(4, 8, 4), fourClasses(), fourJobs(), options);
        QCOMPARE(fifo.classes[1].meanWaitSeconds, 9 * hour);
        QCOMPARE(fifo.classes[2].meanWaitSeconds, 13 * hour);
        QCOMPARE(fifo.classes[3].meanWaitSeconds, 12 * hour);
        // While B waits (1-10 h) the free server idles for it: 8 GPUs x 9 h under FIFO; under
        // EASY C uses it 2-6 h, so 8 x (1 + 4) = 40 GPU-hours idle (D cannot start either).
        QVERIFY(closeRelative(fifo.fragmentation, 8 * 9 / 1280.0));
        QVERIFY(closeRelative(easy.fragmentation, 8 * 5 / 1280.0));
    }

    void jobsStillWaitingAtTheEndCountInTheWaits()
    {
        // The four jobs of easyBackfillByHand, stopped at 8 h: A started at once and C was
        // backfilled at once; B (in since 1 h, behind A's 10 h) and D (in since 3 h) never
        // started. Their waits so far, 8 - 1 = 7 h and 8 - 3 = 5 h, are their classes' waits,
        // marked as lower bounds; before, B and D showed no wait at all ("-", a mean of 0 s).
        SimulationOptions options;
        options.horizonSeconds = 8 * hour;
        const SimulationResult r
            = simulateScheduler(servers(4, 8, 4), fourClasses(), fourJobs(), options);
        QCOMPARE(r.classes[0].waitingAtEnd, 0LL);
        QVERIFY(!r.classes[0].waitsAreLowerBounds());
        QCOMPARE(r.classes[0].meanWaitSeconds, 0.0);
        QCOMPARE(r.classes[1].started, 0LL);
        QCOMPARE(r.classes[1].waitingAtEnd, 1LL);
        QVERIFY(r.classes[1].waitsAreLowerBounds());
        QCOMPARE(r.classes[1].meanWaitSeconds, 7 * hour);
        QCOMPARE(r.classes[1].waitP99Seconds, 7 * hour);
        QCOMPARE(r.classes[3].meanWaitSeconds, 5 * hour);
        // At 8 h, C (2 to 6 h) has completed and A (0 to 10 h) still runs.
        QCOMPARE(r.jobsQueuedAtEnd, 2LL);
        QCOMPARE(r.jobsRunningAtEnd, 1LL);
        QCOMPARE(r.jobsCompleted, 1LL);
        PortfolioPlan portfolio;
        portfolio.classes = fourClasses();
        const std::vector<ClassWaitRow> rows = classWaitRows(r, portfolio);
        QCOMPARE(rows[0].meanWait, std::string("0 s"));
        QCOMPARE(rows[1].started, std::string("0"));
        QCOMPARE(rows[1].meanWait, std::string("≥ 7.0 h"));
        QCOMPARE(rows[3].waitP50, std::string("≥ 5.0 h"));
        // A class whose median job started at once: A (24 GPUs) at 0, an 8-GPU job at 0.5 h on
        // the free server, a 32-GPU job at 1 h behind A. Waits 0, 0 and (so far) 7 h: the median
        // is 0 s, not "≥ 0 s", and the mean at least 7 / 3 = 2.3 h.
        const SimulationResult mixed = simulateScheduler(
            servers(4, 8, 4), fourClasses(),
            {{0, 10 * hour, 24, 0}, {0.5 * hour, hour, 8, 0}, {1 * hour, 5 * hour, 32, 0}},
            options);
        const std::vector<ClassWaitRow> mixedRows = classWaitRows(mixed, portfolio);
        QCOMPARE(mixedRows[0].waitP50, std::string("0 s"));
        QCOMPARE(mixedRows[0].meanWait, std::string("≥ 2.3 h"));
        const std::vector<SimulationFigure> figures = simulationFigures(r);
        QVERIFY(std::any_of(figures.begin(), figures.end(), [](const SimulationFigure &f) {
            return f.figure == "jobs"
                && f.value.find("4 submitted, 1 completed, 1 running and 2 still queued at "
                                "the end (2 never started: the waits marked ≥")
                != std::string::npos;
        }));
    }

    void waitsOverSeveralSeedsGiveTheirSpread()
    {
        // Three runs of one class by hand: p95 waits 10 h, 40 h and 20 h, mean waits 2, 6 and
        // 3 h. Sorted 10, 20, 40: the middle run's 20 h, from 10 h to 40 h, 40 / 10 = 4.0 x.
        // A second class no run started or kept waiting has no waits: "-".
        const auto run = [](double p95Hours, double meanHours, long long waitingAtEnd) {
            SimulationResult r;
            ClassResult c;
            c.name = "training";
            c.started = 10;
            c.waitingAtEnd = waitingAtEnd;
            c.waitP95Seconds = p95Hours * hour;
            c.meanWaitSeconds = meanHours * hour;
            ClassResult idle;
            idle.name = "idle";
            r.classes = {c, idle};
            return r;
        };
        const std::vector<SimulationResult> runs = {run(10, 2, 0), run(40, 6, 0), run(20, 3, 0)};
        const std::vector<ClassWaitSpread> spreads = classWaitSpreads(runs);
        QCOMPARE(spreads.size(), std::size_t(2));
        QCOMPARE(spreads[0].waitP95->medianSeconds, 20 * hour);
        QCOMPARE(spreads[0].waitP95->lowestSeconds, 10 * hour);
        QCOMPARE(spreads[0].waitP95->highestSeconds, 40 * hour);
        QCOMPARE(spreads[0].meanWait->medianSeconds, 3 * hour);
        QVERIFY(!spreads[1].waitP95.has_value());
        const std::vector<ClassWaitSpreadRow> rows = classWaitSpreadRows(runs);
        QCOMPARE(rows[0].waitP95, std::string("20 h (10 h to 40 h)"));
        QCOMPARE(rows[0].meanWait, std::string("3.0 h (2.0 h to 6.0 h)"));
        QCOMPARE(rows[0].p95Ratio, std::string("4.0x"));
        QCOMPARE(rows[1].waitP95, std::string("-"));
        // An even count takes the mean of the two middle runs: 10, 20, 30, 40 give 25 h. A run
        // that ended with jobs of the class still waiting makes its waits lower bounds: "≥".
        const std::vector<SimulationResult> four
            = {run(10, 2, 0), run(40, 6, 1), run(20, 3, 0), run(30, 4, 0)};
        QCOMPARE(classWaitSpreads(four)[0].waitP95->medianSeconds, 25 * hour);
        QCOMPARE(classWaitSpreadRows(four)[0].waitP95, std::string("≥ 25 h (10 h to 40 h)"));
        // Every run alike: one figure.
        QCOMPARE(classWaitSpreadRows({run(5, 1, 0), run(5, 1, 0)})[0].waitP95,
                 std::string("5.0 h (every run)"));
    }

    void offeredLoadIsTheClassesLongRunLoad()
    {
        // One class of 8-GPU, one-hour jobs arriving once an hour on two servers of 8: 8 GPU-hours
        // an hour for 16 GPUs, an offered load of 0.5 however short the run. Over half an hour
        // the sample's first job alone brought 8 GPU-hours against 8 of capacity (100%, "the
        // queue grows without bound").
        std::vector<JobClass> classes(1);
        classes[0].name = "hourly";
        classes[0].gpus = 8;
        classes[0].meanRuntimeSeconds = hour;
        classes[0].runtimeCv = 0;
        classes[0].arrivalsPerSecond = 1 / hour;
        for (const double horizon : {0.5 * hour, 1000 * hour}) {
            SimulationOptions options;
            options.horizonSeconds = horizon;
            const SimulationResult r
                = simulateWorkload(servers(2, 8, 2), {classes, {}, {}}, options);
            QVERIFY2(closeRelative(r.offeredLoad, 0.5), std::to_string(r.offeredLoad).c_str());
        }
    }

    void kueueBestEffortAdmitsWhatFitsByHand()
    {
        // The four jobs of easyBackfillByHand under Kueue's BestEffortFIFO: no reservation for
        // B, so C (2 h) starts on the free server at once and, when it ends at 6 h, D takes
        // the server; B needs all four servers and starts only when D ends at 26 h.
        // Waits: A 0, B 25 h, C 0, D 3 h.
        SimulationOptions options;
        options.horizonSeconds = 40 * hour;
        options.policy = SchedulingPolicy::BestEffortFifo;
        const SimulationResult r
            = simulateScheduler(servers(4, 8, 4), fourClasses(), fourJobs(), options);
        QCOMPARE(r.classes[1].meanWaitSeconds, 25 * hour);
        QCOMPARE(r.classes[2].meanWaitSeconds, 0.0);
        QCOMPARE(r.classes[3].meanWaitSeconds, 3 * hour);
    }

    void spreadingPutsSmallJobsOnEmptyServers()
    {
        // Kubernetes' LeastAllocated: a second one-GPU job goes to another empty server, where
        // best fit would pack it beside the first.
        ServerPool spread(servers(4, 8, 4), true, true);
        spread.take(*spread.place(1));
        QCOMPARE(*spread.place(1), (Allocation {{1, 1}}));
        ServerPool packed(servers(4, 8, 4), true, false);
        packed.take(*packed.place(1));
        QCOMPARE(*packed.place(1), (Allocation {{0, 1}}));
        // With every server partly used, spreading picks the one with most free GPUs.
        for (int s = 1; s < 4; ++s)
            spread.take({{s, 4}});
        QCOMPARE(*spread.place(2), (Allocation {{0, 2}}));
    }

    void multiServerJobsStayUnderOneLeaf()
    {
        // Two leaves of two servers; a small job takes server 0. A two-server job then fits
        // under leaf 1 alone (servers 2 and 3); placed by index it would span both leaves.
        SchedulerCluster cluster = servers(4, 8, 2);
        ServerPool aware(cluster, true);
        aware.take(*aware.place(1));
        QCOMPARE(*aware.place(16), (Allocation {{2, 8}, {3, 8}}));
        ServerPool byIndex(cluster, false);
        byIndex.take(*byIndex.place(1));
        QCOMPARE(*byIndex.place(16), (Allocation {{1, 8}, {2, 8}}));
        // Small jobs fill the used server first (best fit) and leave whole servers whole.
        QCOMPARE(*aware.place(4), (Allocation {{0, 4}}));
        // A down server takes no job; back up, it does.
        ServerPool pool(cluster, true);
        for (int server : {0, 1, 2})
            pool.setUp(server, false);
        QVERIFY(!pool.place(16));
        QCOMPARE(pool.freeGpus(), 8LL);
        pool.setUp(2, true);
        QCOMPARE(*pool.place(16), (Allocation {{2, 8}, {3, 8}}));
    }

    void partitionsConfineTheirJobsByHand()
    {
        // Four servers of 8 GPUs; servers 0-1 are partition "a", 2-3 partition "b". Three
        // one-server jobs of class "a" (1 h each) come at 0, 1 and 2 s: two start at once, the
        // third waits for the first to end at 3,600 s (waits 0, 0, 3,598 s) although "b" idles.
        // A "b" job at 3 s starts at once; a job of no partition at 4 s takes the last server.
        SchedulerCluster cluster = servers(4, 8, 4);
        cluster.partitions = {{"a", 0, 2}, {"b", 2, 4}};
        std::vector<JobClass> classes(3);
        classes[0].name = "a";
        classes[0].partition = "a";
        classes[1].name = "b";
        classes[1].partition = "b";
        classes[2].name = "any";
        const std::vector<TraceJob> trace
            = {{0, hour, 8, 0}, {1, hour, 8, 0}, {2, hour, 8, 0}, {3, hour, 8, 1}, {4, hour, 8, 2}};
        SimulationOptions options;
        options.horizonSeconds = 3 * hour;
        options.policy = SchedulingPolicy::Fifo;
        const SimulationResult r = simulateScheduler(cluster, classes, trace, options);
        QCOMPARE(r.classes[0].started, 3LL);
        QCOMPARE(r.classes[0].waitP99Seconds, hour - 2);
        QCOMPARE(r.classes[1].meanWaitSeconds, 0.0);
        QCOMPARE(r.classes[2].meanWaitSeconds, 0.0);
        // While the third "a" job waits (2 s to 3,600 s) "a" has no free GPU; "b" idles 16 GPUs
        // for 1 s and 8 for 1 s until its own jobs come, for want of work, not because the
        // waiting job cannot fit them: no fragmentation (it counted 24 GPU-seconds of "b").
        QCOMPARE(r.fragmentation, 0.0);
        // The pool's own answer: a 16-GPU job fits in "a" only while both its servers are free.
        ServerPool pool(cluster, true);
        pool.take({{0, 8}});
        QVERIFY(!pool.place(16, 0));
        QCOMPARE(*pool.place(16, 1), (Allocation {{2, 8}, {3, 8}}));
        QCOMPARE(pool.freeGpus(0), 8LL);
        QCOMPARE(pool.freeGpus(1), 16LL);
        // A one-GPU job of "b" goes to "b" even though server 1 of "a" is free too.
        QCOMPARE(*pool.place(1, 1), (Allocation {{2, 1}}));
    }

    void qosLimitHoldsOnlyItsOwnClassByHand()
    {
        // Class "capped" may hold 8 GPUs at once (Slurm GrpTRES=gres/gpu=8); three of its
        // one-server jobs of 1 h come at 0, 1 and 2 s on four free servers. They run one after
        // another: starts at 0, 3,600 and 7,200 s, waits 0, 3,599 and 7,198 s (mean 3,599 s).
        // Under strict FIFO a job of another class at 3 s still starts at once: a job held by
        // its limit waits aside, it does not stop the queue.
        std::vector<JobClass> classes(2);
        classes[0].name = "capped";
        classes[0].maxRunningGpus = 8;
        classes[1].name = "free";
        const std::vector<TraceJob> trace
            = {{0, hour, 8, 0}, {1, hour, 8, 0}, {2, hour, 8, 0}, {3, hour, 8, 1}};
        SimulationOptions options;
        options.horizonSeconds = 4 * hour;
        options.policy = SchedulingPolicy::Fifo;
        const SimulationResult r = simulateScheduler(servers(4, 8, 4), classes, trace, options);
        QCOMPARE(r.classes[0].started, 3LL);
        QVERIFY(closeRelative(r.classes[0].meanWaitSeconds, (0 + 3599.0 + 7198.0) / 3));
        QCOMPARE(r.classes[0].heldByLimit, 2LL);
        QCOMPARE(r.classes[1].meanWaitSeconds, 0.0);
        QCOMPARE(r.jobsCompleted, 4LL);
        // Same under EASY backfill and under Kueue.
        for (SchedulingPolicy policy :
             {SchedulingPolicy::EasyBackfill, SchedulingPolicy::BestEffortFifo}) {
            options.policy = policy;
            const SimulationResult other
                = simulateScheduler(servers(4, 8, 4), classes, trace, options);
            QVERIFY(closeRelative(other.classes[0].meanWaitSeconds, (0 + 3599.0 + 7198.0) / 3));
            QCOMPARE(other.classes[1].meanWaitSeconds, 0.0);
        }
    }

    void scatteredSlowdownByHand()
    {
        // Half the runtime in communication (share 0.5) on leaves of 4:1 down:up bandwidth.
        // Under one leaf the communication factor is max(1, 4 x 0) = 1; spread over two,
        // max(1, 4 x 1/2) = 2: runtime 0.5 + 0.5 x 2 = 1.5 times the compact one. Over four,
        // max(1, 4 x 3/4) = 3: 0.5 + 1.5 = 2 times. A job that needs two leaves anyway (factor
        // 2) and gets four: 2 / 1.5 = 4/3.
        QVERIFY(closeRelative(scatteredSlowdown(0.5, 4, 2, 1), 1.5));
        QVERIFY(closeRelative(scatteredSlowdown(0.5, 4, 4, 1), 2.0));
        QVERIFY(closeRelative(scatteredSlowdown(0.5, 4, 4, 2), 4.0 / 3));
        // A non-blocking fabric (1:1): max(1, 1 x 1/2) = 1, no slowdown for two leaves; a 2:1
        // fabric at two leaves is still injection-bound (2 x 1/2 = 1).
        QCOMPARE(scatteredSlowdown(0.5, 1, 2, 1), 1.0);
        QCOMPARE(scatteredSlowdown(0.5, 2, 2, 1), 1.0);
        QCOMPARE(scatteredSlowdown(0, 4, 4, 1), 1.0);
    }

    void scatteredJobRunsLongerByHand()
    {
        // Four servers, two per leaf, leaves of 4:1. Three one-server jobs come at 0, 1 and 2 s
        // and take servers 0, 1 and 2 (X on 0 runs 1 h; Y and Z 10 h). A two-server job W of
        // 2 h (network share 0.5) comes at 3 s and waits for X: at 1 h it gets servers 0 and
        // 3, under two leaves, so it runs 1.5 x 2 h = 3 h, to 4 h. It ran 3 h on 16 GPUs
        // for 2 h of work: 16 x 1 h = 16 GPU-hours lost to the scattered placement.
        SchedulerCluster cluster = servers(4, 8, 2);
        cluster.leafDownUpRatio = 4;
        std::vector<JobClass> classes(2);
        classes[0].name = "small";
        classes[1].name = "wide";
        classes[1].networkShare = 0.5;
        const std::vector<TraceJob> trace
            = {{0, hour, 8, 0}, {1, 10 * hour, 8, 0}, {2, 10 * hour, 8, 0}, {3, 2 * hour, 16, 1}};
        SimulationOptions options;
        options.policy = SchedulingPolicy::Fifo;
        options.horizonSeconds = 4 * hour - 1;
        const SimulationResult before = simulateScheduler(cluster, classes, trace, options);
        QCOMPARE(before.jobsCompleted, 1LL); // X only: W ends at 4 h, not 3 h
        options.horizonSeconds = 4 * hour + 1;
        const SimulationResult after = simulateScheduler(cluster, classes, trace, options);
        QCOMPARE(after.jobsCompleted, 2LL);
        QCOMPARE(after.classes[1].scatteredStarts, 1LL);
        QVERIFY(closeRelative(after.gpuHoursLostToScatter, 16.0));
        // As the summary says it: W waited 3,600 - 3 = 3,597 s, "60 min"; 16 GPU-hours lost.
        PortfolioPlan portfolio;
        portfolio.classes = classes;
        const std::vector<ClassWaitRow> rows = classWaitRows(after, portfolio);
        QCOMPARE(rows[1].meanWait, std::string("60 min"));
        QCOMPARE(rows[1].scatteredStarts, std::string("1"));
        QCOMPARE(rows[1].runsIn, std::string("any server"));
        const std::vector<SimulationFigure> figures = simulationFigures(after);
        const auto scattered
            = std::find_if(figures.begin(), figures.end(), [](const SimulationFigure &f) {
                  return f.figure == "scattered placements";
              });
        QVERIFY(scattered != figures.end());
        QCOMPARE(scattered->value,
                 std::string("16 GPU-hours lost by jobs placed under more leaves than they need"));
        // On a non-blocking fabric the same placement costs nothing: W ends at 3 h.
        cluster.leafDownUpRatio = 1;
        options.horizonSeconds = 3 * hour + 1;
        const SimulationResult flat = simulateScheduler(cluster, classes, trace, options);
        QCOMPARE(flat.jobsCompleted, 2LL);
        QCOMPARE(flat.gpuHoursLostToScatter, 0.0);
    }

    void planPartitionsLimitsAndLeavesFromThePlan()
    {
        // The shared-cluster sample names its "dev" server group as the interactive class's
        // partition and holds research to 512 GPUs. Its rail leaves are 1:1; in the "Leaves 2:1"
        // scenario a rail leaf has 32 links down (one per server of its unit) and
        // ceil(32 / 2) = 16 up, all 400 Gb/s: 2:1 measured on the graph.
        const Catalog &catalog = cp::test::shippedCatalog();
        const std::string sample = CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json";
        const Plan plan = loadPlan(sample, &catalog);
        const SchedulerTopology topology = schedulerTopology(plan, catalog);
        QCOMPARE(topology.leafDownUpRatio, 1.0);
        const SchedulerCluster cluster = schedulerCluster(plan, catalog, topology);
        QCOMPARE(cluster.partitions.size(), std::size_t(1));
        QCOMPARE(cluster.partitions[0].name, std::string("dev"));
        QCOMPARE(cluster.partitions[0].firstServer, 224);
        QCOMPARE(cluster.partitions[0].endServer, 256);
        const Plan oversubscribed = scenarioPlan(plan, 1, &catalog, sample);
        QCOMPARE(schedulerTopology(oversubscribed, catalog).leafDownUpRatio, 2.0);
        // The fields survive a save.
        const Plan again = parsePlan(planToJson(plan), "again.json", &catalog);
        QCOMPARE(again.portfolio, plan.portfolio);
        // A partition that is no server group, and a limit below the class's own jobs, are
        // refused with the field's pointer.
        const auto refusal = [&](const char *classJson) -> std::string {
            const std::string text = std::string(R"({
                "format": "clusterplanner-plan", "version": 1, "name": "bad",
                "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 4}],
                "fabric": {"topology": "none"},
                "portfolio": {"classes": [)")
                + classJson + "]}}";
            try {
                parsePlan(nlohmann::json::parse(text), "bad.json", &catalog);
            } catch (const InputError &error) {
                return error.what();
            }
            return "accepted";
        };
        QCOMPARE(refusal(R"({"name": "x", "gpus": 8, "runtime_h": 1, "per_day": 1,
                              "partition": "cpu"})"),
                 std::string("bad.json: /portfolio/classes/0/partition: no server group is named "
                             "'cpu' (a partition is one of the plan's server groups)"));
        QCOMPARE(refusal(R"({"name": "x", "gpus": 16, "runtime_h": 1, "per_day": 1,
                              "max_gpus": 8})"),
                 std::string("bad.json: /portfolio/classes/0/max_gpus: a limit of 8 GPUs never "
                             "lets a job of 16 GPUs start"));
        QCOMPARE(refusal(R"({"name": "x", "gpus": 8, "model": "llama-3-8b", "tokens": 1e9,
                              "runtime_h": 1, "per_day": 1})"),
                 std::string("bad.json: /portfolio/classes/0/runtime_h: give runtime_h, or model "
                             "and tokens, not both"));
        QVERIFY(refusal(R"({"name": "x", "gpus": 8, "model": "llama-9", "tokens": 1e9,
                            "per_day": 1})")
                    .find("/portfolio/classes/0/model")
                != std::string::npos);
        QVERIFY(refusal(R"({"name": "x", "gpus": 8, "model": "llama-3-8b", "per_day": 1})")
                    .find("/portfolio/classes/0/tokens")
                != std::string::npos);
        QVERIFY(refusal(R"({"name": "x", "gpus": 8, "runtime_h": 1, "per_day": 1,
                            "network_share": 1.5})")
                    .find("/portfolio/classes/0/network_share")
                != std::string::npos);
        // A class bigger than its partition cannot be simulated, and says why.
        Plan tooBig = plan;
        tooBig.portfolio.classes.back().gpus = 512;
        tooBig.portfolio.classes.back().maxRunningGpus = 0;
        QCOMPARE(simulatePlanPortfolio(tooBig, catalog, {}).error,
                 std::string("job class 'interactive' needs 512 GPUs; partition 'dev' has 256"));
        // A job of 12 GPUs on servers of 8 would hold two whole servers and leave 4 GPUs idle
        // that neither utilisation nor fragmentation counted: refused, with the sizes that fit.
        Plan twelve = plan;
        twelve.portfolio.classes[1].gpus = 12;
        const PortfolioSimulation uneven = simulatePlanPortfolio(twelve, catalog, {});
        QCOMPARE(uneven.error,
                 std::string("job class 'training' needs 12 GPUs, more than one server's 8 and "
                             "not a whole number of servers: a job that spans servers takes "
                             "them whole, so ask for 8 or 16"));
        QCOMPARE(uneven.errorPointer, std::string("/portfolio/classes/1/gpus"));
    }

    void modelClassesTakeTheirRuntimeFromTheEstimator()
    {
        // The shared-cluster sample's training class trains Llama 3 8B (8.03 B parameters,
        // Llama 3 paper Table 3) on 100 B tokens on 256 H100 (989.4 dense BF16 TFLOP/s, the
        // datasheet). A run of D tokens does about 6 N D model FLOPs (Kaplan et al. 2020, eq.
        // 2.1, attention aside), so at the estimate's MFU it takes
        // 6 x 8.03e9 x 1e11 / (256 x 989.4e12 x MFU) seconds; the attention FLOPs the estimator
        // also counts at 2,048 tokens add a few per cent, so within 8%.
        const Catalog &catalog = cp::test::shippedCatalog();
        Plan plan = loadPlan(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json", &catalog);
        SimulationOptions options;
        options.horizonSeconds = 2 * 86400;
        const PortfolioSimulation run = simulatePlanPortfolio(plan, catalog, options);
        QVERIFY2(run.ok(), run.error.c_str());
        QCOMPARE(run.runtimes.size(), std::size_t(2));
        const ClassRuntimeEstimate &training = run.runtimes[1];
        QCOMPARE(training.className, std::string("training"));
        QCOMPARE(training.gpus, 256);
        const double byHand = 6 * 8.03e9 * 1e11 / (256 * 989.4e12 * training.mfu);
        QVERIFY2(std::abs(training.runtimeSeconds / byHand - 1) < 0.08,
                 qPrintable(QStringLiteral("%1 s against %2 s by hand")
                                .arg(training.runtimeSeconds)
                                .arg(byHand)));
        QCOMPARE(run.classes[1].meanRuntimeSeconds, training.runtimeSeconds);
        // Its network share is the estimate's, as none is given; a given one is kept.
        QVERIFY(training.networkShare > 0 && training.networkShare < 0.5);
        QCOMPARE(*run.classes[1].networkShare, training.networkShare);
        // Twice the tokens, twice the time; a share given in the plan stays.
        plan.portfolio.classes[1].tokensPerJob = 2e11;
        plan.portfolio.classes[1].networkShare = 0.3;
        const PortfolioSimulation twice = simulatePlanPortfolio(plan, catalog, options);
        QVERIFY(closeRelative(twice.runtimes[1].runtimeSeconds, 2 * training.runtimeSeconds));
        QCOMPARE(*twice.classes[1].networkShare, 0.3);
        // A class that no layout can train says so instead of simulating.
        plan.portfolio.classes[1].modelId = "llama-3-405b";
        plan.portfolio.classes[1].gpus = 8;
        const PortfolioSimulation impossible = simulatePlanPortfolio(plan, catalog, options);
        QVERIFY2(impossible.error.find("job class 'training' cannot train Llama 3 405B on 8 GPUs")
                     == 0,
                 impossible.error.c_str());
    }

    void failuresLoseTheWorkSinceTheLastCheckpoint()
    {
        // 100 one-server jobs that never end (10^6 h), checkpointing every hour, on 100 servers
        // failing at a 1,000 h MTBF and repaired in 1 h. Over 10,000 h: about 100 x 10,000 /
        // 1,000 = 1,000 failures, each stopping one job that loses on average half a
        // checkpoint interval plus the 10-minute restart: 8 GPUs x (0.5 + 1/6) h = 5.33
        // GPU-hours. Checked to 10% (the count is Poisson, +-3%).
        SchedulerCluster cluster = servers(100, 8, 100);
        cluster.serverMtbfSeconds = 1000 * hour;
        cluster.repairSeconds = hour;
        cluster.restartSeconds = hour / 6;
        std::vector<JobClass> classes(1);
        classes[0].name = "long";
        classes[0].checkpointIntervalSeconds = hour;
        std::vector<TraceJob> jobs(100, TraceJob {0, 1e6 * hour, 8, 0});
        SimulationOptions options;
        options.horizonSeconds = 10000 * hour;
        options.seed = 3;
        const SimulationResult r = simulateScheduler(cluster, classes, jobs, options);
        QVERIFY2(std::abs(r.interruptions / 1000.0 - 1) < 0.1,
                 qPrintable(QString::number(r.interruptions)));
        const double perFailure = r.gpuHoursLostToFailures / r.interruptions;
        QVERIFY2(std::abs(perFailure / (8 * (0.5 + 1.0 / 6)) - 1) < 0.1,
                 qPrintable(QString::number(perFailure)));
        QVERIFY(r.usefulUtilisation < r.utilisation);
    }

    void servicesGetTheirReplicaHours()
    {
        // Two servers of 8 GPUs, a day. A 16-GPU batch job (both servers) comes at 0 and runs
        // 14 h. A service wants no replica in hours 0-11 and two 8-GPU replicas in hours
        // 12-23: it asks for 2 x 12 = 24 replica-hours, and gets both servers only when the
        // job ends at 14 h (running jobs are not preempted): 2 x 10 = 20, attainment 5/6.
        ServiceClass service;
        service.name = "chat";
        service.gpusPerReplica = 8;
        service.replicasByHour.assign(24, 0);
        std::fill(service.replicasByHour.begin() + 12, service.replicasByHour.end(), 2);
        std::vector<JobClass> classes(1);
        classes[0].name = "batch";
        SimulationOptions options;
        options.horizonSeconds = 24 * hour;
        const SimulationResult r = simulateWorkload(
            servers(2, 8, 2), {classes, {service}, {{0, 14 * hour, 16, 0}}}, options);
        QCOMPARE(r.services.size(), std::size_t(1));
        QVERIFY(closeRelative(r.services[0].demandedReplicaHours, 24));
        QVERIFY(closeRelative(r.services[0].servedReplicaHours, 20));
        QVERIFY(closeRelative(r.serviceAttainment, 20.0 / 24));
        // The one batch job (the trace's) is a job; replicas waiting for room are not. The
        // service alone has no job class to report, and nothing queued.
        QCOMPARE(r.jobsQueuedAtEnd, 0LL);
        const SimulationResult alone
            = simulateWorkload(servers(2, 8, 2), {{}, {service}, {}}, options);
        QVERIFY(alone.classes.empty());
        QCOMPARE(alone.jobsSubmitted, 0LL);
        QCOMPARE(alone.jobsQueuedAtEnd, 0LL);
        // As the summary writes it: 24 asked, 20 served, 5/6 = 83.3%.
        const std::vector<ServiceRow> rows = serviceRows(r);
        QCOMPARE(rows.size(), std::size_t(1));
        QCOMPARE(rows[0].demandedReplicaHours, std::string("24"));
        QCOMPARE(rows[0].servedReplicaHours, std::string("20"));
        QCOMPARE(rows[0].attainment, std::string("83.3%"));
        // GPU-hours: the job's 16 x 14 and the replicas' 8 x 2 x 10 = 384 of 16 x 24.
        QVERIFY(closeRelative(r.utilisation, 384.0 / 384));
        // Back to no replicas by hour 0 of the next day: scaling down frees the servers.
        options.horizonSeconds = 36 * hour;
        const SimulationResult longer = simulateWorkload(
            servers(2, 8, 2), {classes, {service}, {{0, 14 * hour, 16, 0}}}, options);
        QVERIFY(closeRelative(longer.services[0].servedReplicaHours, 20));
        QVERIFY(closeRelative(longer.utilisation, 384.0 / (16 * 36)));
        // Day by day: the first day fully busy, the 12 hours of the second idle.
        QCOMPARE(longer.dailyUtilisation.size(), std::size_t(2));
        QVERIFY(closeRelative(longer.dailyUtilisation[0], 1.0));
        QCOMPARE(longer.dailyUtilisation[1], 0.0);
        // With preemption the replicas stop the job at 12 h and get all 24 replica-hours. The
        // job (no checkpoints) loses its 12 h on 16 GPUs and pays a 10-minute restart; it starts
        // again when the service scales to zero at 24 h and runs past a 35 h horizon (at 36 h
        // the service would take the servers again).
        options.servicesPreempt = true;
        options.horizonSeconds = 35 * hour;
        const SimulationResult preempted = simulateWorkload(
            servers(2, 8, 2), {classes, {service}, {{0, 14 * hour, 16, 0}}}, options);
        QVERIFY(closeRelative(preempted.services[0].servedReplicaHours, 24));
        QCOMPARE(preempted.preemptions, 1LL);
        QVERIFY(closeRelative(preempted.gpuHoursLostToPreemption, 16 * 12 + 16.0 / 6));
        QCOMPARE(preempted.gpuHoursLostToFailures, 0.0);
        // Busy all 35 h: the job 0-12 h, the replicas 12-24 h, the job again 24-35 h.
        QVERIFY(closeRelative(preempted.utilisation, 1.0));
    }

    void serversForATargetWaitMatchErlangC()
    {
        // One-server jobs of exponential 1 h runtimes at 12.8 an hour. In an M/M/c queue a job
        // waits longer than t with probability C e^-(c - a) t (t in hours, a = 12.8), so the p95
        // wait is ln(C / 0.05) / (c - a) when C > 0.05. The fewest servers keeping it within
        // half an hour, by that formula, against the bisection over simulations (2,000 h each;
        // failures of the DGX servers and the noise allow one server either way).
        const double arrivals = 12.8 / hour;
        int expected = 13;
        for (;; ++expected) {
            const double meanWaitHours = erlangCMeanWaitSeconds(expected, arrivals, hour) / hour;
            const double c = meanWaitHours * (expected - 12.8); // Erlang C, from Wq = C / (c - a)
            const double p95 = c > 0.05 ? std::log(c / 0.05) / (expected - 12.8) : 0.0;
            if (p95 <= 0.5)
                break;
        }
        const Plan plan = parsePlan(nlohmann::json::parse(R"({
            "format": "clusterplanner-plan", "version": 1, "name": "mmc",
            "nodes": [{"name": "gpu", "node": "dgx-h100", "count": 16}],
            "fabric": {"topology": "none"},
            "portfolio": {"policy": "fifo", "classes": [
                {"name": "one server", "gpus": 8, "runtime_h": 1, "per_day": 307.2}]}})"),
                                    "mmc.json", &cp::test::shippedCatalog());
        SimulationOptions options;
        options.horizonSeconds = 2000 * hour;
        options.warmupSeconds = 50 * hour;
        const TargetWaitSizing sizing = serversForTargetWait(plan, cp::test::shippedCatalog(),
                                                             "one server", 0.5 * hour, options);
        QVERIFY2(sizing.error.empty(), sizing.error.c_str());
        QVERIFY2(
            std::abs(sizing.servers - expected) <= 1,
            qPrintable(
                QStringLiteral("bisection %1, Erlang C %2").arg(sizing.servers).arg(expected)));
        QCOMPARE(sizing.gpus, 8LL * sizing.servers);
        QVERIFY(sizing.waitP95Seconds <= 0.5 * hour);
        // A class the portfolio does not have is named in the error.
        QVERIFY(serversForTargetWait(plan, cp::test::shippedCatalog(), "nobody", hour, options)
                    .error.find("no job class 'nobody'")
                != std::string::npos);
    }

    void comparisonHasQueueRows()
    {
        // The shared-cluster sample at 2,048 and 4,096 GPUs: with twice the GPUs for the same
        // jobs, no class waits longer at the 95th percentile and the GPUs are less busy (the
        // same GPU-hours over twice the GPUs); a plan without a portfolio has no queue rows.
        const Plan plan = loadPlan(CP_SOURCE_DIR "/samples/h100-2048-shared-cluster.json",
                                   &cp::test::shippedCatalog());
        ComparisonOptions options;
        options.queueSeconds = 30 * 86400.0;
        const ScenarioComparison comparison
            = compareScenarios(plan, cp::test::shippedCatalog(), options);
        int waitRows = 0;
        for (const ComparisonRow &row : comparison.rows) {
            if (row.key.rfind("queue_wait_p95_h:", 0) == 0) {
                ++waitRows;
                QVERIFY2(row.values[1] <= row.values[0], row.key.c_str());
            }
            if (row.key == "queue_utilisation_pct")
                QVERIFY(*row.values[1] < *row.values[0]);
        }
        QCOMPARE(waitRows, 5);
        // Each wait row says which of its values are lower bounds: those of a class with jobs
        // still waiting when the period ended, as plan simulate marks them.
        for (const ComparisonRow &row : comparison.rows) {
            if (row.key.rfind("queue_wait_p95_h:", 0) != 0)
                continue;
            const std::string name = row.key.substr(std::string("queue_wait_p95_h:").size());
            QCOMPARE(row.lowerBounds.size(), comparison.scenarios.size());
            for (std::size_t i = 0; i < comparison.scenarios.size(); ++i)
                for (const ClassResult &c : comparison.scenarios[i].queue->result.classes)
                    if (c.name == name)
                        QCOMPARE(row.isLowerBound(i), c.waitingAtEnd > 0);
        }
        const Plan single = loadPlan(CP_SOURCE_DIR "/samples/h100-1024-ndr-rail-fat-tree.json",
                                     &cp::test::shippedCatalog());
        ComparisonOptions none;
        for (const ComparisonRow &row :
             compareScenarios(single, cp::test::shippedCatalog(), none).rows)
            QVERIFY2(row.section != "Queue", row.key.c_str());
    }

    void queueInOneSentence()
    {
        // 30 simulated days with the GPUs 88.04% allocated and 87.6% kept; p95 waits of 3.2
        // days (276,480 s) and 8 minutes (480 s): the report's key figure.
        PortfolioSimulation simulation;
        simulation.result.utilisation = 0.8804;
        simulation.result.usefulUtilisation = 0.876;
        simulation.result.dailyUtilisation.assign(30, 0.88);
        ClassResult pretraining;
        pretraining.name = "pretraining";
        pretraining.waitP95Seconds = 276480;
        ClassResult interactive;
        interactive.name = "interactive";
        interactive.waitP95Seconds = 480;
        simulation.result.classes = {pretraining, interactive};
        QCOMPARE(portfolioSummaryText(simulation),
                 std::string("over 30 simulated days: GPUs busy 88.0% (useful 87.6%); p95 wait: "
                             "pretraining 3.2 days, interactive 8 min"));
        // Jobs of a class still waiting at the end make its waits lower bounds, marked as the
        // class table marks them (the summary said "pretraining 3.2 days" plainly).
        simulation.result.classes[0].waitingAtEnd = 13;
        QVERIFY2(portfolioSummaryText(simulation).find("pretraining ≥ 3.2 days, interactive 8 min")
                     != std::string::npos,
                 portfolioSummaryText(simulation).c_str());
        simulation.result.classes[0].waitingAtEnd = 0;
        // Offered more than the GPUs, the queue never empties; services short of replicas say
        // how short.
        simulation.result.offeredLoad = 1.25;
        ServiceResult chat;
        chat.name = "chat";
        chat.demandedReplicaHours = 100;
        chat.servedReplicaHours = 95;
        simulation.result.services = {chat};
        simulation.result.serviceAttainment = 0.95;
        const std::string busy = portfolioSummaryText(simulation);
        QVERIFY2(busy.find("offered 125% of the GPUs: the queue grows without bound")
                     != std::string::npos,
                 busy.c_str());
        QVERIFY2(busy.ends_with("; services get 95.0% of the replica-hours they ask for"),
                 busy.c_str());
        // Nothing simulated, nothing said.
        simulation.error = "no portfolio";
        QCOMPARE(portfolioSummaryText(simulation), std::string());
    }

    void slurmAccountingTrace()
    {
        // sacct --parsable2: the four jobs of easyBackfillByHand as Slurm would account them
        // (10, 5, 4 and 20 h on 24, 32, 8 and 8 GPUs, submitted an hour apart), a job step
        // (skipped: its job is counted) and a job cancelled before it started (skipped).
        const std::string sacct
            = "JobID|JobName|Submit|Start|End|AllocTRES\n"
              "100|train|2024-05-01T00:00:00|2024-05-01T00:00:00|2024-05-01T10:00:00|"
              "billing=64,cpu=64,gres/gpu=24,node=3\n"
              "100.batch|batch|2024-05-01T00:00:00|2024-05-01T00:00:00|2024-05-01T10:00:00|"
              "cpu=64,gres/gpu=24\n"
              "101|big|2024-05-01T01:00:00|2024-05-01T10:00:00|2024-05-01T15:00:00|gres/gpu=32\n"
              "102|small|2024-05-01T02:00:00|2024-05-01T02:00:00|2024-05-01T06:00:00|gres/gpu=8\n"
              "103|long|2024-05-01T03:00:00|2024-05-01T15:00:00|2024-05-02T11:00:00|gres/gpu=8\n"
              "104|cancelled|2024-05-01T04:00:00|Unknown|Unknown|\n";
        const WorkloadTrace trace = parseSlurmAccounting(sacct, "sacct.txt");
        QCOMPARE(trace.skippedLines, 1LL);
        QCOMPARE(trace.jobs.size(), std::size_t(4));
        const std::vector<TraceJob> expected = fourJobs();
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(trace.jobs[i].submitSeconds, expected[i].submitSeconds);
            QCOMPARE(trace.jobs[i].runtimeSeconds, expected[i].runtimeSeconds);
            QCOMPARE(trace.jobs[i].gpus, expected[i].gpus);
        }
        try {
            parseSlurmAccounting("JobID|Submit|Start|End\n", "short.txt");
            QFAIL("a header without AllocTRES was accepted");
        } catch (const InputError &error) {
            QVERIFY(std::string(error.what())
                        .find("short.txt: line 1: the header names no "
                              "AllocTRES field")
                    == 0);
        }
        try {
            parseSlurmAccounting("JobID|Submit|Start|End|AllocTRES\n1|May 1st|x|y|gres/gpu=1\n",
                                 "bad.txt");
            QFAIL("a Submit that is not a time was accepted");
        } catch (const InputError &error) {
            QVERIFY(std::string(error.what()).find("bad.txt: line 2: Submit is not a time") == 0);
        }
    }

    void standardWorkloadFormatTrace()
    {
        // Two jobs and a comment; a job with run time -1 (unknown) is skipped; submit times
        // start at 0; field 8 (requested processors) stands in for an unknown field 5.
        const std::string swf = "; Version: 2.2\n"
                                "1 100 5 3600 16 -1 -1 16 7200 -1 1 1 1 1 1 1 -1 -1\n"
                                "2 160 0 -1 8 -1 -1 8 7200 -1 0 1 1 1 1 1 -1 -1\n"
                                "3 400 0 60 -1 -1 -1 4 7200 -1 1 1 1 1 1 1 -1 -1\n";
        const WorkloadTrace trace = parseStandardWorkloadFormat(swf, "log.swf");
        QCOMPARE(trace.jobs.size(), std::size_t(2));
        QCOMPARE(trace.skippedLines, 1LL);
        QCOMPARE(trace.jobs[0].submitSeconds, 0.0);
        QCOMPARE(trace.jobs[0].runtimeSeconds, 3600.0);
        QCOMPARE(trace.jobs[0].gpus, 16);
        QCOMPARE(trace.jobs[1].submitSeconds, 300.0);
        QCOMPARE(trace.jobs[1].gpus, 4);
        // A simulated run written back as SWF reads as the same jobs, with their waits: the
        // four-job schedule (waits 0, 9, 0 and 12 h under EASY backfill).
        const std::string four = "1 0 0 36000 24 -1 -1 24 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                 "2 3600 0 18000 32 -1 -1 32 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                 "3 7200 0 14400 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n"
                                 "4 10800 0 72000 8 -1 -1 8 -1 -1 1 1 1 1 1 1 -1 -1\n";
        const WorkloadTrace original = parseStandardWorkloadFormat(four, "four.swf");
        SimulationOptions options;
        options.horizonSeconds = 40 * hour;
        options.recordJobs = true;
        const SimulationResult run
            = simulateScheduler(servers(4, 8, 4), {}, original.jobs, options);
        const std::string written = writeStandardWorkloadFormat(run.jobs, "four servers");
        const WorkloadTrace again = parseStandardWorkloadFormat(written, "again.swf");
        QCOMPARE(again.jobs.size(), original.jobs.size());
        for (std::size_t i = 0; i < again.jobs.size(); ++i) {
            QCOMPARE(again.jobs[i].submitSeconds, original.jobs[i].submitSeconds);
            QCOMPARE(again.jobs[i].runtimeSeconds, original.jobs[i].runtimeSeconds);
            QCOMPARE(again.jobs[i].gpus, original.jobs[i].gpus);
        }
        QVERIFY(written.find("\n2 3600 32400 18000 32 ") != std::string::npos);
        QVERIFY(written.find("\n4 10800 43200 72000 8 ") != std::string::npos);
        try {
            parseStandardWorkloadFormat("1 2 3\n", "short.swf");
            QFAIL("a line of 3 fields was accepted");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()),
                     std::string("short.swf: line 1: expected 18 fields of the Standard "
                                 "Workload Format, found 3"));
        }
        try {
            parseStandardWorkloadFormat("1 x 5 3600 16 -1 -1 16 7200 -1 1 1 1 1 1 1 -1 -1\n",
                                        "bad.swf");
            QFAIL("a non-number was accepted");
        } catch (const InputError &error) {
            QVERIFY(std::string(error.what()).find("field 2 is not a number") != std::string::npos);
        }
    }
};

QTEST_GUILESS_MAIN(TestSchedulerSimulation)
#include "tst_schedulersimulation.moc"
