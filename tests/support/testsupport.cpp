// SPDX-License-Identifier: GPL-3.0-or-later
#include "testsupport.h"

#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"
#include "model/plan/planio.h"

#include <algorithm>
#include <cmath>

namespace cp::test {

std::string sourcePath(const std::string &relative)
{
    return std::string(CP_SOURCE_DIR) + "/" + relative;
}

std::shared_ptr<const model::Catalog> shippedCatalogPointer()
{
    static const auto shipped = std::make_shared<const model::Catalog>(
        model::loadCatalogDirectory(sourcePath("catalogs")));
    return shipped;
}

const model::Catalog &shippedCatalog()
{
    return *shippedCatalogPointer();
}

model::Plan loadSamplePlan(const std::string &fileName)
{
    return model::loadPlan(sourcePath("samples/" + fileName), &shippedCatalog());
}

std::string planLoadError(const nlohmann::json &document)
{
    try {
        model::parsePlan(document, "plan.json", &shippedCatalog());
    } catch (const model::InputError &error) {
        return error.what();
    }
    return {};
}

model::Plan planOfServers(const std::string &nodeId, int count, const std::string &topology)
{
    model::Plan plan;
    model::NodeGroup group;
    group.name = "servers";
    group.nodeId = nodeId;
    group.count = count;
    plan.nodeGroups.push_back(group);
    plan.fabric.topology = topology;
    return plan;
}

bool closeRelative(double a, double b, double relativeTolerance)
{
    return std::abs(a - b) <= relativeTolerance * std::max(std::abs(a), std::abs(b));
}

} // namespace cp::test
