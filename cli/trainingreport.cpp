// SPDX-License-Identifier: GPL-3.0-or-later
#include "trainingreport.h"
#include "table.h"

#include "model/core/humantext.h"
#include "model/core/units.h"

namespace cp::cli {

namespace units = model::units;

std::string renderTrainingEstimate(const model::TrainingEstimate &e,
                                   const model::PublishedRunComparison *published)
{
    Table table({"figure", "value"});
    table.addRow({"layout", model::layoutDescription(e.config)});
    // Under a second in milliseconds: a tiny model's step is not "0.000 s".
    table.addRow({"step time",
                  e.stepSeconds >= 100.0     ? model::humanDuration(e.stepSeconds)
                      : e.stepSeconds >= 1.0 ? format("%.3f s", e.stepSeconds)
                                             : format("%.4g ms", 1e3 * e.stepSeconds)});
    table.addRow({"throughput", format("%.4g tokens/s", e.tokensPerSecond)});
    table.addRow(
        {"model TFLOP/s per GPU", format("%.1f", e.modelFlopsPerSecondPerGpu / units::tera)});
    table.addRow({"hardware TFLOP/s per GPU",
                  model::withReason(format("%.1f", e.hardwareFlopsPerSecondPerGpu / units::tera),
                                    model::hardwareBelowModelNote(e))});
    table.addRow(
        {"MFU", model::withReason(format("%.1f%%", 100 * e.mfu), model::mfuConventionNote(e))});
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
        table.addRow({"training time (no failures)", model::humanDuration(e.trainingSeconds)});
        table.addRow({"GPU-hours (no failures)", model::threeDigits(e.gpuHours)});
    }
    table.addRow({"bottleneck", e.bottleneck});
    std::string text = table.render();
    text += "  " + e.bottleneckExplanation + "\n";
    if (published)
        text += "published runs: " + model::publishedRunsText(*published) + "\n";
    text += "\n";

    const model::StepBreakdown &b = e.breakdown;
    // A step under a second is broken down in milliseconds, so its parts are not all 0.0000.
    const bool milliseconds = e.stepSeconds < 1.0;
    Table breakdown({"step breakdown", milliseconds ? "ms" : "seconds", "share"});
    auto row = [&](const char *name, double seconds) {
        breakdown.addRow({name, format("%.4f", (milliseconds ? 1e3 : 1.0) * seconds),
                          format("%.1f%%", 100 * seconds / e.stepSeconds)});
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
    if (e.offloadsActivations())
        row("activation copies to host (exposed)", b.hostOffloadSeconds);
    text += breakdown.render();
    return text;
}

std::string renderTrainingOperations(const model::TrainingEstimate &e)
{
    Table table(
        {"operation", "kind", "TFLOP", "GB moved", "kernels", "ms per step", "share", "hidden ms"});
    for (const model::StepOperation &op : e.operations) {
        table.addRow({op.name, model::operationKindName(op.kind),
                      op.flops > 0 ? format("%.4g", op.flops / units::tera) : "",
                      op.bytes > 0 ? format("%.4g", op.bytes / units::giga) : "",
                      op.kernels > 0 ? format("%.0f", op.kernels) : "",
                      format("%.2f", op.seconds * 1e3),
                      format("%.1f%%", 100 * op.seconds / e.stepSeconds),
                      op.hiddenSeconds > 0 ? format("%.2f", op.hiddenSeconds * 1e3) : ""});
    }
    return "Where the step time goes (busiest pipeline stage, one GPU):\n" + table.render();
}

std::string renderTrainingAlternatives(const std::vector<model::TrainingEstimate> &top)
{
    Table table({"#", "layout", "step s", "MFU", "memory GiB", "bottleneck"});
    for (std::size_t i = 0; i < top.size(); ++i) {
        const auto &e = top[i];
        table.addRow({std::to_string(i + 1), model::layoutDescription(e.config),
                      format("%.3f", e.stepSeconds), format("%.1f%%", 100 * e.mfu),
                      format("%.1f", e.memory.totalBytes() / units::gibi), e.bottleneck});
    }
    return table.render();
}

namespace {

std::string humanCount(double value)
{
    return model::groupThousands(format("%.0f", value));
}

std::string stageUtilisations(const model::DataPathPhase &phase)
{
    std::string text;
    for (const model::DataPathStage &stage : phase.stages)
        text += (text.empty() ? "" : ", ") + stage.name
            + format(" %.0f%%", 100 * stage.utilisation());
    return text;
}

} // namespace

void addRunLengthRows(Table &table, const model::OperationsEstimate &o)
{
    if (!(o.wallSeconds > 0))
        return;
    table.addRow(
        {"wall time (expected)",
         model::humanDuration(o.wallSeconds) + " with failures, restarts and checkpoints"});
    table.addRow({"GPU-hours (expected)", model::threeDigits(o.wallGpuHours)});
    table.addRow({"energy",
                  model::humanEnergy(o.energyMegawattHours * 3.6e9) + ", "
                      + model::humanUsd(o.electricityUsd) + " electricity, "
                      + model::humanCarbon(o.carbonTonnes * 1000)});
}

void addDataPathRows(Table &table, const model::DataPathEstimate &path)
{
    namespace units = model::units;
    table.addRow({"dataset",
                  path.dataset + ": " + humanCount(path.samplesPerSecond) + " samples/s, "
                      + format("%.3g GB/s", path.requiredReadBytesPerSecond / units::giga) + ", "
                      + humanCount(path.requiredIops) + " IOPS, "
                      + humanCount(path.requiredMetadataOpsPerSecond)
                      + " metadata ops/s"
                      // NFS answers both from one budget, the figure to set against its IOPS.
                      + (path.metadataSharesIops ? ": "
                                 + humanCount(path.requiredIops + path.requiredMetadataOpsPerSecond)
                                 + " NFS operations/s from one budget"
                                                 : std::string())});
    table.addRow({"data path, first epoch",
                  stageUtilisations(path.firstEpoch) + " busy"
                      + (path.firstEpoch.stallFraction > 0
                             ? "; " + model::starvingStagesText(path.firstEpoch) + " cannot keep up"
                             : "; busiest: " + path.firstEpoch.limitingStage)});
    if (path.cacheHitRatio > 0)
        table.addRow(
            {"data path, warm cache",
             stageUtilisations(path.warm)
                 + format(" busy on average after the first epoch (%.0f%% of reads from the "
                          "nodes' caches: each keeps what it read, and every epoch deals it a "
                          "reshuffled share)",
                          100 * path.cacheHitRatio)});
    table.addRow({"data stall",
                  path.stallFraction > 0
                      ? format("GPUs wait for data %.1f%% of the run", 100 * path.stallFraction)
                          + " (first epoch " + model::shareText(path.firstEpoch.stallFraction)
                          + ", later epochs " + model::shareText(path.warm.stallFraction) + "); "
                          + path.advice
                      : std::string("none: every stage keeps up with the GPUs")});
    table.addRow({"CPU cores needed",
                  format("%.0f per node (decode and one per GPU)", path.cpuCoresNeededPerNode)});
}

std::string renderTrainingRun(const model::TrainingRunEstimate &run,
                              const model::TrainingRunSetup &setup)
{
    namespace units = model::units;
    const model::OperationsEstimate &o = run.operations;
    const model::ReliabilityEstimate &r = run.reliability;
    Table table({"run", "value"});
    table.addRow({"power (average)",
                  "IT "
                      + model::itPowerText({.gpusWatts = o.gpusWatts,
                                            .nodesWatts = o.nodesWatts,
                                            .networkWatts = o.networkWatts,
                                            .storageWatts = o.storageWatts},
                                           format(" at %.0f%% busy", 100 * run.gpuBusyFraction))});
    table.addRow({"facility power",
                  model::humanPower(o.facilityWatts) + format(" at PUE %.2f", setup.facility.pue)
                      + " (" + setup.facility.id + ")"});
    table.addRow({"failures",
                  format("%.2f interruptions per day", r.interruptionsPerDay) + ", job MTBF "
                      + model::humanWait(r.mtbfSeconds)});
    if (r.checkpointsWritable)
        table.addRow(
            {"checkpoint",
             model::humanBytes(run.checkpointBytes) + ", write "
                 + model::humanDuration(r.checkpointWriteSeconds) + " (restore "
                 + model::humanDuration(r.checkpointReadSeconds) + ") to "
                 + (setup.storageSystems > 1 ? model::groupedCount(setup.storageSystems) + " x "
                                             : std::string())
                 + setup.storage.name
                 + (r.asyncCheckpoints ? format(" in the background after a %.2f s copy",
                                                r.checkpointBlockedSeconds)
                            + format(" to host memory (%.0f GB per node)",
                                     run.checkpointHostBytesPerNode / units::giga)
                                       : std::string())
                 + ", every " + model::humanWait(r.checkpointIntervalSeconds) + " ("
                 + r.intervalRule + ")"});
    else
        table.addRow({"checkpoint",
                      model::humanBytes(run.checkpointBytes)
                          + " cannot be written: no storage; every failure "
                            "restarts the run from its start"});
    table.addRow({"restart",
                  format("%.1f min", r.restartSeconds / 60)
                      + (r.sparesCoverFailures ? " (" + model::groupedCount(r.spareNodes)
                                 + (r.spareNodes == 1 ? " spare node covers" : " spare nodes cover")
                                 + " the failed ones)"
                                               : " (includes waiting for a node replacement)")});
    table.addRow(
        {"goodput",
         r.goodput > 0 || r.checkpointsWritable
             ? model::withReason(format("%.3g%% of wall time is useful work", 100 * r.goodput),
                                 model::lowGoodputText(r))
             : std::string("none: without checkpoints the run practically "
                           "never finishes")});
    table.addRow({"data feed",
                  model::humanBytes(run.dataFeedBytesPerSecond) + "/s" + " of "
                      + model::humanBytes(setup.storage.readBytesPerSecond) + "/s storage read"});
    if (run.dataPath.present)
        addDataPathRows(table, run.dataPath);
    table.addRow(
        {"storage needed",
         model::humanBytes(run.storedBytes)
             + format(" (data and %.0f checkpoints): ", setup.retainedCheckpoints)
             + humanCount(static_cast<double>(run.storageSystemsNeeded)) + " x "
             + setup.storage.name
             + " for its capacity and feed"
             // The run's checkpoint-storage note is there exactly when the sized count matters.
             + (!run.checkpointStorageNote.empty()
                    ? "; " + model::groupedCount(run.checkpointStorage.systems)
                        + " to write checkpoints at the lowest cost per useful hour"
                    : std::string())});
    if (o.wallSeconds > 0) {
        addRunLengthRows(table, o);
        // A cloud price rents the hot spares too, for the whole wall time.
        const std::string rentedSpares = o.rentedSpareGpuHours > 0
            ? ", with " + model::threeDigits(o.rentedSpareGpuHours)
                + " GPU-hours of the hot spare nodes rented beside the run"
            : std::string();
        table.addRow({"cost",
                      model::humanUsd(o.costUsd)
                          + format(" at $%.2f per GPU-hour", o.costPerGpuHourUsd)
                          + (setup.hourlyUsdPerGpu ? " (cloud price" + rentedSpares + ")"
                                                   : " (capital amortised + electricity)")});
    } else if (r.goodput <= 0) {
        table.addRow({"wall time (expected)",
                      "never: " + model::runNeverFinishesText(r)
                          + ", so no GPU-hours, energy or cost are given"});
    }
    // At a cloud price nothing is bought: the capital is what owning the hardware would take.
    table.addRow({setup.hourlyUsdPerGpu ? "capital (if bought)" : "capital",
                  model::humanUsd(run.capitalUsd)
                      + format(" (%.0f switches", static_cast<double>(run.switches))
                      + format(", %.0f transceivers", static_cast<double>(run.transceivers))
                      // `train` has no data hall: a plan's bill adds what the hall needs.
                      + "; GPUs, servers, NICs, fabric and storage: a plan's bill adds racks, "
                        "power distribution, cabling and the management network)"});
    std::string text = table.render();
    for (const std::string &note : run.notes)
        text += "note: " + note + "\n";
    return text;
}

} // namespace cp::cli
