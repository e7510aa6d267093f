// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/plan/plan.h"

#include <nlohmann/json.hpp>

#include <string>

namespace cp::model {

class Catalog;

/**
 * Reads a plan document. Every malformed input is an InputError naming the file, the JSON
 * pointer of the field and the reason; with a catalog, ids are checked against it too.
 */
Plan parsePlan(const nlohmann::json &document, const std::string &file, const Catalog *catalog);
Plan loadPlan(const std::string &path, const Catalog *catalog);

/**
 * Refuses a plan whose servers or GPUs, summed over all groups, exceed what an int counts
 * (2,147,483,647): an InputError at /nodes of `file`. parsePlan calls it when given a catalog.
 */
void checkPlanSize(const Plan &plan, const Catalog &catalog, const std::string &file);

nlohmann::json planToJson(const Plan &plan);
/** Writes the plan atomically (temporary file, then rename): a failed save keeps the old file. */
void savePlan(const Plan &plan, const std::string &path);

} // namespace cp::model
