// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-bench: medians over repeated runs of the estimators (not part of ctest).
#include "model/catalogdatabase.h"
#include "model/catalogpaths.h"
#include "model/clusterdescription.h"
#include "model/dragonflygenerator.h"
#include "model/fabricanalysis.h"
#include "model/fabriccollective.h"
#include "model/fattreegenerator.h"
#include "model/inferenceestimator.h"
#include "model/inferencesetup.h"
#include "model/trainingestimator.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

namespace {
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
    return times[times.size() / 2];
}
} // namespace

int main()
{
    using namespace cp::model;
    const Catalog catalog = loadCatalogDirectory(shippedCatalogDirectory());

    TrainingJob job;
    job.model = catalog.llm("gpt-3-175b");
    job.seqLen = 2048;
    job.globalBatch = 1536;
    const ClusterDescription cluster
        = ClusterDescription::fromCatalog(catalog, "dgx-h100", 4096, "", 0, 1.0, true, 64);
    const TrainingEstimator estimator(job, cluster);
    ParallelConfig fixed;
    fixed.tp = 8;
    fixed.pp = 16;
    fixed.dp = 32;
    fixed.recompute = Recompute::Full;
    const double one = medianSeconds(2001, [&] { (void)estimator.estimate(fixed); });
    long long evaluated = 0;
    const double search = medianSeconds(11, [&] { evaluated = estimator.search().evaluated; });
    std::printf("training estimate, one layout (GPT-3 175B, 4096 H100):   median %.2f us\n",
                one * 1e6);
    std::printf("training search, all layouts (%lld evaluated):        median %.1f ms\n", evaluated,
                search * 1e3);

    InferenceJob inference;
    inference.model = catalog.llm("llama-3-70b");
    inference.weightPrecision = Precision::FP8;
    inference.gpusPerReplica = 8;
    inference.inputTokens = 1024;
    inference.outputTokens = 256;
    inference.ratePerSecond = 50;
    inference.ttftP95Seconds = 0.5;
    inference.tpotP95Seconds = 0.05;
    const InferenceSetup setup = inferenceSetupFromCatalog(catalog, "", "h100-sxm5-80gb",
                                                           "dc-industry-average", 4, std::nullopt);
    const InferenceEstimator inferenceEstimator(inference, setup.hardware, setup.cost);
    const double slo = medianSeconds(101, [&] { (void)inferenceEstimator.estimate(); });
    std::printf("inference estimate with SLO search (Llama 3 70B, H100): median %.1f us\n",
                slo * 1e6);

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
    std::printf("fat-tree k=64, 3 tiers, 65,536 endpoints, generate+analyse+rings: median %.2f s "
                "(last run: generate %.2f, analyse %.2f, rings %.2f)\n",
                fatTreeTotal, generateSeconds, analyseSeconds, ringSeconds);
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
    std::printf("Dragonfly p=16 a=32 h=16 g=128, 65,536 endpoints, same work:      median %.2f s\n",
                dragonflyTotal);
    return 0;
}
