// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace cp::model {

struct ScenarioResult;

/**
 * One line of the side-by-side table of where the time goes: an operation's time in each
 * scenario (train --explain's and infer --explain's tables, one column a scenario), the phase's
 * total, or the sequences a decode step carries. It is what explains a comparison's step time,
 * TTFT and TPOT figure by figure: an L40S decoding 128 sequences a step against an L4's 16 shows
 * here, not only in the tokens per second it leads to.
 */
struct OperationComparisonRow
{
    std::string phase; ///< "Training step", "Prefill of one prompt" or "Decode step"
    std::string label; ///< the operation's name, "total", or "sequences in the step"
    std::string unit; ///< "ms" or "sequences"
    bool total = false; ///< the phase's sum of operations
    /** A comparison figure the phase leads to (TTFT and TPOT under load: the prefill and the
     * decode step with queueing and the prompts prefilled between steps). */
    bool figure = false;
    /** Per scenario, baseline first; empty where the scenario has no such operation or phase. */
    std::vector<std::optional<double>> values;
};

/**
 * Every scenario's step operations side by side, by phase: a training step on the busiest
 * pipeline stage of one GPU, one prompt's prefill and one decode step through one stage. An
 * operation some scenario lacks (context parallelism, FP8 casts, a MoE dispatch) sits where that
 * scenario runs it, between its neighbours. Times in milliseconds (seconds on the critical path;
 * hidden communication is not counted). A phase no scenario has is left out. After a serving
 * phase's total comes the figure it leads to under the workload's load: TTFT p95 after the
 * prefill, the time per output token after the decode step.
 */
std::vector<OperationComparisonRow> compareOperations(const std::vector<ScenarioResult> &scenarios);

} // namespace cp::model
