// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-validate: runs a published-runs table through the training estimator and prints
// the markdown report committed as docs/validation-megatron-sc21.md.
#include "model/catalogdatabase.h"
#include "model/catalogpaths.h"
#include "model/jsonfieldreader.h"
#include "model/publishedrunvalidation.h"

#include <iostream>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: clusterplanner-validate TABLE.json   (e.g. "
                     "tests/data/megatron_sc21_table1.json)\n";
        return 2;
    }
    try {
        const cp::model::Catalog catalog
            = cp::model::loadCatalogDirectory(cp::model::shippedCatalogDirectory());
        const nlohmann::json table = cp::model::readJsonFile(argv[1]);
        const auto rows = cp::model::validateAgainstMegatronTable(table, catalog, argv[1]);
        std::cout << cp::model::validationReportMarkdown(
            rows, table.value("source", std::string(argv[1])));
        return 0;
    } catch (const std::exception &error) {
        std::cerr << "clusterplanner-validate: " << error.what() << "\n";
        return 1;
    }
}
