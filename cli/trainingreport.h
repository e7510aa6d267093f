// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/planning/trainingrun.h"
#include "model/training/trainingestimate.h"
#include "model/validation/publishedruncomparison.h"

#include <string>
#include <vector>

namespace cp::cli {

class Table;

/**
 * The human-readable block for one training estimate, shared by `train` and `plan estimate`;
 * with `published`, the line that sets it against the published runs on its GPU follows the
 * bottleneck.
 */
std::string renderTrainingEstimate(const model::TrainingEstimate &estimate,
                                   const model::PublishedRunComparison *published = nullptr);
/** Every operation of the step with its FLOPs, bytes, kernels and time (`train --explain`). */
std::string renderTrainingOperations(const model::TrainingEstimate &estimate);
/** Table of alternative layouts (the search's top list). */
std::string renderTrainingAlternatives(const std::vector<model::TrainingEstimate> &top);
/** The data loader's pipeline as rows of `table`: what each stage carries against what it
 * can, and the stall (shared by `train` and `plan estimate`). */
void addDataPathRows(Table &table, const model::DataPathEstimate &path);
/** The run's expected wall time, its GPU-hours and its energy (electricity and carbon), as
 * `train` and `plan estimate` list them; nothing for a run with no wall time. */
void addRunLengthRows(Table &table, const model::OperationsEstimate &operations);
/** Power, energy, cost and failures of the run. */
std::string renderTrainingRun(const model::TrainingRunEstimate &run,
                              const model::TrainingRunSetup &setup);

} // namespace cp::cli
