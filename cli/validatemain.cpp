// SPDX-License-Identifier: GPL-3.0-or-later
// clusterplanner-validate: runs the published training runs of a validation table through the
// training estimator and prints the markdown report committed as docs/validation-training.md.
#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogpaths.h"
#include "model/core/jsonfieldreader.h"
#include "model/validation/inferencevalidation.h"
#include "model/validation/storagevalidation.h"
#include "model/validation/trainingvalidation.h"

#include <iostream>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::cerr << "usage: clusterplanner-validate TABLE.json   (e.g. "
                     "catalogs/validation/training_validation.json, inference_validation.json or "
                     "storage_validation.json)\n";
        return 2;
    }
    try {
        const cp::model::Catalog catalog
            = cp::model::loadCatalogDirectory(cp::model::shippedCatalogDirectory());
        const nlohmann::json table = cp::model::readJsonFile(argv[1]);
        // The table's format says which estimator it validates; a table without a string format
        // is read as a training table, whose reader refuses it at /format.
        const auto format = [&](const char *name) {
            return table.is_object() && table.contains("format") && table["format"] == name;
        };
        if (format("clusterplanner-inference-validation")) {
            const auto rows = cp::model::runInferenceValidation(table, catalog, argv[1]);
            std::cout << cp::model::inferenceValidationMarkdown(rows, argv[1]);
            return 0;
        }
        if (format("clusterplanner-storage-validation")) {
            const auto rows = cp::model::runStorageValidation(table, catalog, argv[1]);
            std::cout << cp::model::storageValidationMarkdown(rows, argv[1]);
            return 0;
        }
        const auto rows = cp::model::runTrainingValidation(table, catalog, argv[1]);
        std::cout << cp::model::trainingValidationMarkdown(rows, argv[1]);
        return 0;
    } catch (const std::exception &error) {
        std::cerr << "clusterplanner-validate: " << error.what() << "\n";
        return 1;
    }
}
