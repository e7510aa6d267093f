// SPDX-License-Identifier: GPL-3.0-or-later
#include "trainingreport.h"
#include "table.h"

#include "model/units.h"

namespace cp::cli {

namespace units = model::units;

namespace {
std::string layout(const model::TrainingEstimate &e)
{
    const model::ParallelConfig &c = e.config;
    std::string text = "TP " + std::to_string(c.tp) + " x PP " + std::to_string(c.pp) + " x DP "
        + std::to_string(c.dp);
    if (c.cp > 1)
        text += " x CP " + std::to_string(c.cp);
    if (c.ep > 1)
        text += ", EP " + std::to_string(c.ep);
    text += ", microbatch " + std::to_string(c.microbatch);
    if (c.interleave > 1)
        text += ", interleave " + std::to_string(c.interleave);
    text += ", recompute " + model::recomputeName(c.recompute) + ", ZeRO-" + std::to_string(c.zero);
    return text;
}
} // namespace

std::string renderTrainingEstimate(const model::TrainingEstimate &e)
{
    Table table({"figure", "value"});
    table.addRow({"layout", layout(e)});
    table.addRow({"step time", format("%.3f s", e.stepSeconds)});
    table.addRow({"throughput", format("%.4g tokens/s", e.tokensPerSecond)});
    table.addRow(
        {"model TFLOP/s per GPU", format("%.1f", e.modelFlopsPerSecondPerGpu / units::tera)});
    table.addRow(
        {"hardware TFLOP/s per GPU", format("%.1f", e.hardwareFlopsPerSecondPerGpu / units::tera)});
    table.addRow({"MFU", format("%.1f%%", 100 * e.mfu)});
    table.addRow(
        {"exposed communication", format("%.1f%% of the step", 100 * e.commExposedFraction)});
    table.addRow({"pipeline bubble (p-1)/(v*m)", format("%.3f", e.bubbleFraction)});
    table.addRow({"memory per GPU",
                  format("%.1f GiB", e.memory.totalBytes() / units::gibi)
                      + format(" of %.1f GiB", e.memoryCapacityBytes / units::gibi)
                      + (e.fits ? " (fits)" : " (DOES NOT FIT)")});
    table.addRow({"  weights / grads / optimizer",
                  format("%.1f", e.memory.weightsBytes / units::gibi) + " / "
                      + format("%.1f", e.memory.gradientsBytes / units::gibi) + " / "
                      + format("%.1f GiB", e.memory.optimizerBytes / units::gibi)});
    table.addRow({"  activations / reserved",
                  format("%.1f", e.memory.activationsBytes / units::gibi) + " / "
                      + format("%.1f GiB", e.memory.reservedBytes / units::gibi)});
    if (e.trainingSeconds > 0) {
        table.addRow(
            {"training time", format("%.1f days", e.trainingSeconds / units::secondsPerDay)});
        table.addRow({"GPU-hours", format("%.4g", e.gpuHours)});
    }
    table.addRow({"bottleneck", e.bottleneck});
    std::string text = table.render();
    text += "  " + e.bottleneckExplanation + "\n\n";

    const model::StepBreakdown &b = e.breakdown;
    Table breakdown({"step breakdown", "seconds", "share"});
    auto row = [&](const char *name, double seconds) {
        breakdown.addRow(
            {name, format("%.4f", seconds), format("%.1f%%", 100 * seconds / e.stepSeconds)});
    };
    row("compute (GEMM, attention)", b.computeSeconds);
    row("memory-bound kernels", b.memoryBoundSeconds);
    row("tensor-parallel comm", b.tpCommSeconds);
    row("context-parallel comm", b.cpCommSeconds);
    row("expert-parallel comm", b.epCommSeconds);
    row("pipeline p2p", b.ppCommSeconds);
    row("pipeline bubble", b.bubbleSeconds);
    row("data-parallel comm (exposed)", b.dpCommExposedSeconds);
    row("optimizer", b.optimizerSeconds);
    text += breakdown.render();
    return text;
}

std::string renderTrainingAlternatives(const std::vector<model::TrainingEstimate> &top)
{
    Table table({"#", "layout", "step s", "MFU", "memory GiB", "bottleneck"});
    for (std::size_t i = 0; i < top.size(); ++i) {
        const auto &e = top[i];
        table.addRow({std::to_string(i + 1), layout(e), format("%.3f", e.stepSeconds),
                      format("%.1f%%", 100 * e.mfu),
                      format("%.1f", e.memory.totalBytes() / units::gibi), e.bottleneck});
    }
    return table.render();
}

} // namespace cp::cli
