// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the test executables share: the shipped catalog loaded once, the source tree's samples, and
// a relative comparison of doubles. One copy here instead of one per test file.

#include "model/catalog/catalog.h"
#include "model/plan/plan.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace cp::test {

/** A path inside the source tree, e.g. sourcePath("samples/x.json"). */
std::string sourcePath(const std::string &relative);

/** The shipped catalog (catalogs/ of the source tree), loaded on first use. */
const model::Catalog &shippedCatalog();

/** The same catalog as the shared pointer the views' documents hold. */
std::shared_ptr<const model::Catalog> shippedCatalogPointer();

/** A sample plan from samples/, resolved against the shipped catalog. */
model::Plan loadSamplePlan(const std::string &fileName);

/** Why the plan loader refuses `document` (read as "plan.json" against the shipped catalog):
 * its input error's text, naming the JSON pointer; empty when the plan loads. */
std::string planLoadError(const nlohmann::json &document);

/** A plan of one group, "servers", of `count` catalog servers `nodeId` on a fabric of
 * `topology` ("none": no fabric), with the catalog's NIC and switch for it. */
model::Plan planOfServers(const std::string &nodeId, int count, const std::string &topology);

/** |a - b| within relativeTolerance of the larger magnitude (true for a == b == 0). */
bool closeRelative(double a, double b, double relativeTolerance = 1e-9);

} // namespace cp::test
