// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-bench: medians over repeated runs of the estimators (not part of ctest).
#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogpaths.h"
#include "model/cluster/clusterdescription.h"
#include "model/core/atomicfile.h"
#include "model/fabric/dragonflygenerator.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fattreegenerator.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "model/plan/planio.h"
#include "model/planning/datahall.h"
#include "model/planning/planestimator.h"
#include "model/planning/planworstfailure.h"
#include "model/planning/portfoliosimulation.h"
#include "model/planning/scenariocomparison.h"
#include "model/training/trainingestimator.h"

#include "datahallview.h"
#include "fabriccanvas.h"
#include "fabricdrawing.h"
#include "fabricview.h"
#include "plandocument.h"
#include "planreport.h"
#include "planscene.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace {

/** The spread of the last measurement, printed under its figure. */
struct Timing
{
    double minSeconds = 0;
    double medianSeconds = 0;
    double maxSeconds = 0;
    int runs = 0;
};
Timing lastTiming;
double referenceSeconds = 0; ///< the fixed reference computation's median, this run

double medianSeconds(int runs, const std::function<void()> &work)
{
    std::vector<double> times;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        work();
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    lastTiming = {times.front(), times[times.size() / 2], times.back(), runs};
    return lastTiming.medianSeconds;
}

/**
 * "    min 0.41, max 0.52 ms over 11 runs; 3.1 x reference": the spread of the figure just
 * printed, and its median against the reference computation of the same run, which is what
 * compares across machines (the absolute figures moved by 70% between runs on a shared host).
 */
void printSpread(double scale, const char *unit)
{
    std::printf("    min %.3g, max %.3g %s over %d runs; %.3g x reference\n",
                lastTiming.minSeconds * scale, lastTiming.maxSeconds * scale, unit, lastTiming.runs,
                referenceSeconds > 0 ? lastTiming.medianSeconds / referenceSeconds : 0.0);
}

/** The CPU, as /proc/cpuinfo names it. */
std::string cpuName()
{
    std::FILE *file = std::fopen("/proc/cpuinfo", "r");
    if (!file)
        return "unknown CPU";
    char line[512];
    std::string name = "unknown CPU";
    while (std::fgets(line, sizeof line, file)) {
        const std::string text(line);
        if (text.rfind("model name", 0) == 0) {
            const auto colon = text.find(':');
            name = text.substr(colon + 2, text.size() - colon - 3);
            break;
        }
    }
    std::fclose(file);
    return name;
}

/**
 * A fixed computation that depends on nothing in the program: 4,000,000 steps of a 64-bit
 * linear congruential generator (Knuth's MMIX constants) summed in doubles. The ratio of each
 * figure to it cancels most of the machine's speed.
 */
double referenceComputation()
{
    std::uint64_t state = 1;
    double sum = 0;
    for (int i = 0; i < 4000000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        sum += static_cast<double>(state >> 11);
    }
    return sum;
}

} // namespace

/**
 * A 16,384-GPU plan: 2,048 DGX H100 in 40 kW racks on a 3-tier non-blocking NDR rail fabric,
 * training Llama 3 405B, with two scenarios (the size of Meta's Llama 3 405B cluster).
 */
nlohmann::json largePlanJson()
{
    return nlohmann::json::parse(R"json({
      "format": "clusterplanner-plan", "version": 1,
      "name": "16,384 x H100 (benchmark)",
      "nodes": [{"name": "compute", "node": "dgx-h100", "count": 2048, "rack": "rack-air-40kw"}],
      "fabric": {"topology": "rail-fat-tree", "nic": "ib-ndr-400", "nics_per_node": 8,
                 "switch": "qm9700", "tiers": 3, "oversubscription": 1},
      "storage": [{"storage": "lustre-exascaler", "count": 16}],
      "facility": {"facility": "dc-industry-average"},
      "workload": {"type": "training", "model": "llama-3-405b", "seq_len": 8192,
                   "global_batch": 2048, "tokens": 15e12, "precision": "bf16"},
      "scenarios": [
        {"name": "2:1 oversubscribed", "changes": {"fabric": {"oversubscription": 2}}},
        {"name": "H200", "changes": {"nodes": [{"name": "compute", "node": "hgx-h200-8gpu",
                                                 "count": 2048, "rack": "rack-air-40kw"}]}}
      ]
    })json");
}

/** One training estimate and the full layout search: GPT-3 175B on 4,096 H100. */
void benchTraining(const cp::model::Catalog &catalog)
{
    using namespace cp::model;
    TrainingJob job;
    job.model = catalog.llm("gpt-3-175b");
    job.seqLen = 2048;
    job.globalBatch = 1536;
    ClusterFromCatalogOptions clusterOptions; // non-blocking rail fabric of 64-port leaves
    clusterOptions.nodeId = "dgx-h100";
    clusterOptions.gpus = 4096;
    const ClusterDescription cluster = ClusterDescription::fromCatalog(catalog, clusterOptions);
    const TrainingEstimator estimator(job, cluster);
    ParallelConfig fixed;
    fixed.tp = 8;
    fixed.pp = 16;
    fixed.dp = 32;
    fixed.recompute = Recompute::Full;
    const double one = medianSeconds(2001, [&] { (void)estimator.estimate(fixed); });
    std::printf("training estimate, one layout (GPT-3 175B, 4096 H100):   median %.3g us\n",
                one * 1e6);
    printSpread(1e6, "us");
    long long evaluated = 0, pruned = 0;
    const double search = medianSeconds(11, [&] {
        const TrainingSearchResult result = estimator.search();
        evaluated = result.evaluated;
        pruned = result.pruned;
    });
    // Layouts per second over the whole space, the skipped interleaves included, so the figure
    // compares with searches that evaluate every layout.
    std::printf("training search, all %lld layouts (%lld evaluated):  median %.3g ms "
                "(%.2f M layouts/s)\n",
                evaluated + pruned, evaluated, search * 1e3, (evaluated + pruned) / search / 1e6);
    printSpread(1e3, "ms");
}

/** Llama 3 70B served on H100 with the SLO search. */
void benchInference(const cp::model::Catalog &catalog)
{
    using namespace cp::model;
    InferenceJob inference;
    inference.model = catalog.llm("llama-3-70b");
    inference.weightPrecision = Precision::FP8;
    inference.gpusPerReplica = 8;
    inference.inputTokens = 1024;
    inference.outputTokens = 256;
    inference.ratePerSecond = 50;
    inference.ttftP95Seconds = 0.5;
    inference.tpotP95Seconds = 0.05;
    const InferenceSetup setup = inferenceSetupFromCatalog(
        catalog, {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});
    const InferenceEstimator inferenceEstimator(inference, setup.hardware, setup.cost);
    const double slo = medianSeconds(101, [&] { (void)inferenceEstimator.estimate(); });
    std::printf("inference estimate with SLO search (Llama 3 70B, H100): median %.3g us\n",
                slo * 1e6);
    printSpread(1e6, "us");
}

/** The fabric engine on 65,536 endpoints: a k=64 fat tree and a Dragonfly. */
void benchFabricEngine(const cp::model::Catalog &catalog)
{
    using namespace cp::model;
    // Fabric engine: generate, analyse (counts, exact hop statistics by symmetry, max-flow
    // bisection) and run every rank ring at once, as `clusterplanner-cli fabric` does.
    const FabricHardware hardware
        = fabricHardware(catalog.networkSwitch("qm9700"), catalog.nic("ib-ndr-400"), 64);
    FatTreeParameters fatTree;
    fatTree.radix = 64;
    fatTree.tiers = 3;
    double generateSeconds = 0;
    double analyseSeconds = 0;
    double ringSeconds = 0;
    const double fatTreeTotal = medianSeconds(5, [&] {
        const auto t0 = std::chrono::steady_clock::now();
        const FabricGraph graph = generateFatTree(fatTree);
        const auto t1 = std::chrono::steady_clock::now();
        (void)analyseFabric(graph, hardware);
        const auto t2 = std::chrono::steady_clock::now();
        (void)concurrentRingRate(graph, rankRings(graph, 1, 65536), 130e-9);
        const auto t3 = std::chrono::steady_clock::now();
        generateSeconds = std::chrono::duration<double>(t1 - t0).count();
        analyseSeconds = std::chrono::duration<double>(t2 - t1).count();
        ringSeconds = std::chrono::duration<double>(t3 - t2).count();
    });
    std::printf("fat-tree k=64, 3 tiers, 65,536 endpoints, generate+analyse+rings: median %.3g s "
                "(last run: generate %.2f, analyse %.2f, rings %.2f)\n",
                fatTreeTotal, generateSeconds, analyseSeconds, ringSeconds);
    printSpread(1, "s");
    DragonflyParameters dragonfly;
    dragonfly.p = 16;
    dragonfly.a = 32;
    dragonfly.h = 16;
    dragonfly.groups = 128;
    const double dragonflyTotal = medianSeconds(5, [&] {
        const FabricGraph graph = generateDragonfly(dragonfly);
        (void)analyseFabric(graph, hardware);
        (void)concurrentRingRate(graph, rankRings(graph, 1, 65536), 130e-9);
    });
    std::printf("Dragonfly p=16 a=32 h=16 g=128, 65,536 endpoints, same work:      median %.3g s\n",
                dragonflyTotal);
    printSpread(1, "s");
}

/** The 16,384-GPU plan written to `dir`, read back, estimated and compared; returns it. */
cp::model::Plan benchLargePlan(const cp::model::Catalog &catalog, const QTemporaryDir &dir)
{
    using namespace cp::model;
    // The 16,384-GPU plan: read and validate it from a file, estimate it (layout search, fabric
    // graph, power, failures), compare its scenarios, and build and draw its canvas scene.
    const std::string planPath
        = QDir(dir.path()).filePath(QStringLiteral("large.json")).toStdString();
    writeFileAtomically(planPath, largePlanJson().dump(2));
    Plan large;
    const double load = medianSeconds(21, [&] { large = loadPlan(planPath, &catalog); });
    std::printf("load the 16,384-GPU plan (parse, validate, 2 scenarios):  median %.3g ms\n",
                load * 1e3);
    printSpread(1e3, "ms");
    const double estimate = medianSeconds(5, [&] { (void)estimatePlan(large, catalog); });
    std::printf("estimate the 16,384-GPU plan (search, fabric, power):    median %.3g ms\n",
                estimate * 1e3);
    printSpread(1e3, "ms");
    const double compare = medianSeconds(3, [&] {
        ComparisonOptions options;
        options.scalingGpuCounts = defaultScalingGpuCounts(large, catalog);
        (void)compareScenarios(large, catalog, options);
    });
    std::printf("compare its 3 variants with the scaling curve:           median %.3g ms\n",
                compare * 1e3);
    printSpread(1e3, "ms");

    return large;
}

/** The canvas scene of `large`: built, edited and drawn. */
void benchCanvas(cp::views::PlanDocument &document, cp::views::PlanScene &scene,
                 const cp::model::Plan &large)
{
    using namespace cp::model;
    const double build = medianSeconds(21, [&] {
        document.reset(large, QString());
        QCoreApplication::processEvents();
    });
    std::printf("build its canvas scene (%lld items):                       median %.3g ms\n",
                static_cast<long long>(scene.items().size()), build * 1e3);
    printSpread(1e3, "ms");
    int count = 2048;
    const double editRebuild = medianSeconds(21, [&] {
        Plan changed = document.plan();
        changed.nodeGroups[0].count = (count += 8);
        document.edit(changed, QStringLiteral("resize"));
        QCoreApplication::processEvents();
    });
    std::printf("an edit and the scene update it causes:                   median %.3g ms\n",
                editRebuild * 1e3);
    printSpread(1e3, "ms");
    // A card dragged on a canvas of many server groups: every step of the drag re-routes and
    // re-labels each cable (96 groups: the router's grid; 400: past its 100-card bound).
    for (const int groups : {96, 400}) {
        Plan many = large;
        many.nodeGroups.resize(1);
        many.nodeGroups.front().count = 16;
        for (int index = 1; index < groups; ++index)
            many.nodeGroups.push_back(many.nodeGroups.front());
        for (std::size_t index = 0; index < many.nodeGroups.size(); ++index)
            many.nodeGroups[index].name = "group " + std::to_string(index + 1);
        document.reset(many, QString());
        QCoreApplication::processEvents();
        QGraphicsItem *dragged = nullptr;
        for (QGraphicsItem *item : scene.items())
            if (item->flags() & QGraphicsItem::ItemIsMovable)
                dragged = item;
        if (!dragged)
            continue;
        double step = 8; // right, then back: every call moves the card
        const double drag = medianSeconds(
            21, [&] { dragged->setPos(dragged->pos() + QPointF(step = -step, 0)); });
        std::printf("drag a card among %3d server groups, one step:            median %.3g ms\n",
                    groups, drag * 1e3);
        printSpread(1e3, "ms");
    }
    document.reset(large, QString());
    QCoreApplication::processEvents();
    QImage frame(1400, 900, QImage::Format_ARGB32_Premultiplied);
    const double draw = medianSeconds(21, [&] {
        frame.fill(Qt::white);
        QPainter painter(&frame);
        painter.setRenderHint(QPainter::Antialiasing);
        scene.render(&painter, QRectF(frame.rect()), scene.itemsBoundingRect());
    });
    std::printf("draw one 1400 x 900 frame of the whole scene:             median %.3g ms\n",
                draw * 1e3);
    printSpread(1e3, "ms");
}

/** The Fabric and Data Hall views' workers on `large`. */
void benchFabricAndHallBuilds(const cp::model::Catalog &catalog, const cp::model::Plan &large)
{
    // The Fabric view of the 16,384-GPU plan: its graph generated, the layout's ring loads
    // measured for the heat map and everything laid out (what the worker thread does), and one 1920
    // x 1080 frame fitted (bundles) and at scale 1 (switches).
    std::size_t drawnSwitches = 0;
    const double fabricBuild = medianSeconds(5, [&] {
        drawnSwitches = cp::views::buildPlanFabricDrawing(large, catalog).switches.size();
    });
    std::printf("fabric view build (%zu switches, graph, heat, layout):   median %.3g ms\n",
                drawnSwitches, fabricBuild * 1e3);
    printSpread(1e3, "ms");
    for (const auto traffic : {cp::model::FabricTraffic::Pipeline, cp::model::FabricTraffic::All}) {
        const double seconds = medianSeconds(3, [&] {
            drawnSwitches
                = cp::views::buildPlanFabricDrawing(large, catalog, 0, traffic).switches.size();
        });
        std::printf("fabric view build, heat of %-22s median %.3g ms\n",
                    (cp::model::fabricTrafficName(traffic) + ":").c_str(), seconds * 1e3);
        printSpread(1e3, "ms");
    }
    // The Data Hall view's worker: the room laid out and every cable measured.
    std::size_t hallCables = 0;
    const double hall = medianSeconds(
        5, [&] { hallCables = cp::model::layoutDataHall(large, catalog).cables.size(); });
    std::printf("data hall layout (racks, U positions, %zu cables):    median %.3g ms\n",
                hallCables, hall * 1e3);
    printSpread(1e3, "ms");
    // The same room for 3 million GPUs (377,776 eight-GPU servers, no fabric): 125,926 compute
    // cabinets and 25,185 management switches, each mounted in its own row's network cabinets.
    cp::model::Plan huge;
    huge.name = "3 M GPUs";
    huge.nodeGroups.push_back(large.nodeGroups.front());
    huge.nodeGroups.front().count = 377776;
    huge.fabric.topology = "none";
    huge.storage.clear();
    const double hugeHall = medianSeconds(
        3, [&] { hallCables = cp::model::layoutDataHall(huge, catalog).cables.size(); });
    std::printf("data hall layout, 377,776 servers (%zu cables):    median %.3g s\n", hallCables,
                hugeHall);
    printSpread(1, "s");
}

/** A year of a 10,000-jobs-a-day portfolio on `large`'s 16,384 GPUs. */
void benchScheduler(const cp::model::Catalog &catalog, const cp::model::Plan &large)
{
    // A year of 10,000 jobs a day on the 16,384 GPUs: interactive, fine-tuning, training and
    // pretraining classes at 87% of the GPUs, EASY backfill, server failures.
    cp::model::Plan shared16k = large;
    const auto jobClass = [](const char *name, int gpus, double runtimeSeconds, double cv,
                             double perDay, int priority, double checkpointSeconds) {
        cp::model::JobClass job;
        job.name = name;
        job.gpus = gpus;
        job.meanRuntimeSeconds = runtimeSeconds;
        job.runtimeCv = cv;
        job.arrivalsPerSecond = perDay / 86400;
        job.priority = priority;
        job.checkpointIntervalSeconds = checkpointSeconds;
        return job;
    };
    shared16k.portfolio.classes = {jobClass("interactive", 1, 3600, 1, 7000, 0, 0),
                                   jobClass("fine-tuning", 8, 4 * 3600, 1.5, 2900, 5, 1800),
                                   jobClass("training", 128, 12 * 3600, 1, 90, 8, 1800),
                                   jobClass("pretraining", 1024, 10 * 3600, 0.5, 10, 10, 1800)};
    long long simulatedJobs = 0;
    const double year = medianSeconds(3, [&] {
        simulatedJobs
            = cp::model::simulatePlanPortfolio(shared16k, catalog, {}).result.jobsSubmitted;
    });
    std::printf("scheduler, a year of 10,000 jobs/day on 16,384 GPUs (%lld jobs): median %.3g s\n",
                simulatedJobs, year);
    printSpread(1, "s");
}

/** Median time to draw one 1920 x 1080 frame of `canvas` as it is zoomed now. */
double frameSeconds(cp::views::FabricCanvas *canvas)
{
    QImage screen(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    return medianSeconds(21, [&] {
        screen.fill(Qt::white);
        QPainter painter(&screen);
        painter.setRenderHint(QPainter::Antialiasing);
        canvas->render(&painter);
    });
}

/** Frames of the Fabric view at two zooms, and the worst single failure of `large`. */
void benchFabricView(cp::views::PlanDocument &document,
                     const std::shared_ptr<const cp::model::Catalog> &shared,
                     const cp::model::Plan &large)
{
    using namespace cp::model;
    const Catalog &catalog = *shared;
    cp::views::FabricView fabricView(&document);
    fabricView.resize(1920, 1080);
    fabricView.show();
    document.reset(large, QString());
    fabricView.setCatalog(shared);
    fabricView.waitForIdle();
    QCoreApplication::processEvents();
    fabricView.canvas()->fitAll();
    std::printf("fabric view frame (1920 x 1080, fitted: bundles):        median %.3g ms\n",
                frameSeconds(fabricView.canvas()) * 1e3);
    printSpread(1e3, "ms");
    fabricView.canvas()->setZoom(1.0);
    std::printf("fabric view frame (1920 x 1080, scale 1: switches):      median %.3g ms\n",
                frameSeconds(fabricView.canvas()) * 1e3);
    printSpread(1e3, "ms");
    const double worst = medianSeconds(3, [&] { (void)planWorstFailure(large, catalog); });
    std::printf("worst single failure of the 16,384-GPU plan:             median %.3g ms\n",
                worst * 1e3);
    printSpread(1e3, "ms");
}

/** The Data hall view of `large`: from the plan to the laid-out floor, and frames at two zooms
 * (the panning a user does redraws such frames). */
void benchDataHallView(cp::views::PlanDocument &document,
                       const std::shared_ptr<const cp::model::Catalog> &shared,
                       const cp::model::Plan &large)
{
    cp::views::DataHallView hallView(&document);
    hallView.resize(1920, 1080);
    hallView.show();
    hallView.setCatalog(shared);
    const double build = medianSeconds(3, [&] {
        document.reset(large, QString());
        hallView.waitForIdle();
        QCoreApplication::processEvents();
    });
    std::printf("data hall view, plan to laid-out floor (16,384 GPUs):    median %.3g ms\n",
                build * 1e3);
    printSpread(1e3, "ms");
    hallView.canvas()->fitAll();
    std::printf("data hall view frame (1920 x 1080, fitted: every row):   median %.3g ms\n",
                frameSeconds(hallView.canvas()) * 1e3);
    printSpread(1e3, "ms");
    hallView.canvas()->setZoom(2.0);
    std::printf("data hall view frame (1920 x 1080, zoom 2: cabinet names): median %.3g ms\n",
                frameSeconds(hallView.canvas()) * 1e3);
    printSpread(1e3, "ms");
}

/** The PDF report of the shipped H100 sample, written into `dir`. */
void benchReport(const std::shared_ptr<const cp::model::Catalog> &shared, const QTemporaryDir &dir)
{
    using namespace cp::model;
    const Catalog &catalog = *shared;
    // The PDF report of the shipped H100 sample (three variants).
    const Plan sample
        = loadPlan(shippedSamplesDirectory() + "/h100-1024-ndr-rail-fat-tree.json", &catalog);
    ComparisonOptions options;
    options.scalingGpuCounts = defaultScalingGpuCounts(sample, catalog);
    ScenarioComparison comparison;
    // What `plan compare` of the sample does in-process: its three variants and the baseline's
    // scaling curve (the issue's 50 ms target is for this plan, not the 16,384-GPU one).
    const double compare
        = medianSeconds(11, [&] { comparison = compareScenarios(sample, catalog, options); });
    std::printf("compare the H100 sample's 3 variants with the scaling curve: median %.3g ms\n",
                compare * 1e3);
    printSpread(1e3, "ms");
    const QString pdf = QDir(dir.path()).filePath(QStringLiteral("report.pdf"));
    int pages = 0;
    const double report = medianSeconds(5, [&] {
        const cp::views::PlanReportInput input
            = cp::views::preparePlanReport(sample, comparison, shared, QStringLiteral("sample"));
        pages = cp::views::writePlanReportPdf(input, pdf);
    });
    std::printf("PDF report of the H100 sample (%d pages):                  median %.3g ms\n",
                pages, report * 1e3);
    printSpread(1e3, "ms");
}

int main(int argc, char **argv)
{
    using namespace cp::model;
    volatile double sink = 0;
    referenceSeconds = medianSeconds(21, [&] { sink = sink + referenceComputation(); });
    std::printf("CPU: %s, %u hardware threads\n", cpuName().c_str(),
                std::thread::hardware_concurrency());
    std::printf("reference computation (4 M LCG steps):                 median %.3g ms\n",
                referenceSeconds * 1e3);
    printSpread(1e3, "ms");
    const Catalog catalog = loadCatalogDirectory(shippedCatalogDirectory());
    // --views: only the views' benchmarks (canvas, fabric and data hall views, report), for
    // profiling them.
    const bool viewsOnly = argc > 1 && std::string(argv[1]) == "--views";
    if (!viewsOnly) {
        benchTraining(catalog);
        benchInference(catalog);
        benchFabricEngine(catalog);
    }
    QTemporaryDir dir;
    const Plan large = benchLargePlan(catalog, dir);

    // The scene and PDF benchmarks need a QApplication; without a display, render offscreen.
    // It is made only now: QGuiApplication's start-up leaves the upper halves of the AVX
    // registers dirty on this thread, and the SSE-encoded model code then pays the SSE/AVX
    // transition penalty (about 2x: 0.44 -> 1.0 us per training estimate; one vzeroupper
    // restores it). Worker threads start clean, and that is where the desktop program estimates.
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const auto shared = std::make_shared<const Catalog>(catalog);
    cp::views::PlanDocument document;
    cp::views::PlanScene scene(&document);
    scene.setCatalog(shared);
    benchCanvas(document, scene, large);
    if (!viewsOnly) {
        benchFabricAndHallBuilds(catalog, large);
        benchScheduler(catalog, large);
    }
    benchFabricView(document, shared, large);
    benchDataHallView(document, shared, large);
    benchReport(shared, dir);
    return 0;
}
