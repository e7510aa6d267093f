// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "argumentparser.h"

#include "model/catalog/catalog.h"

#include <vector>

namespace cp::cli {

/** --model and the shape of a model that is not in the catalog (--layers, --hidden, ...). */
std::vector<OptionSpec> modelShapeOptions();
/** The catalog model named by --model, or the custom model the shape options describe. */
model::ModelSpec modelFromArguments(const ParsedArguments &arguments,
                                    const model::Catalog &catalog);
/** The node type --node names (refused where it carries another GPU than --gpu), or the
 * catalog node that carries --gpu. */
std::string nodeIdFromArguments(const ParsedArguments &arguments, const model::Catalog &catalog);

} // namespace cp::cli
