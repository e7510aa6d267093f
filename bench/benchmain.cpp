// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-bench: medians over repeated runs of the estimators (not part of ctest).
#include "model/catalogdatabase.h"
#include "model/catalogpaths.h"
#include "model/clusterdescription.h"
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
    return 0;
}
