// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"

#include <string>

namespace cp::model {

/**
 * The shipped catalog directory: $CLUSTERPLANNER_CATALOG_DIR, else share/clusterplanner/catalogs
 * relative to the running executable's prefix (an installed or relocated copy), else the source
 * tree the program was built from.
 */
std::string shippedCatalogDirectory();
/** The shipped sample plans, found the same way ($CLUSTERPLANNER_SAMPLES_DIR overrides). */
std::string shippedSamplesDirectory();
/** The documentation (user guide, model notes), found the same way ($CLUSTERPLANNER_DOCS_DIR). */
std::string shippedDocsDirectory();
/** $CLUSTERPLANNER_DB, else $XDG_DATA_HOME/clusterplanner/catalog.sqlite (~/.local/share/...). */
std::string defaultDatabasePath();
/** The user's data directory (autosaves, recovery, the catalog database). */
std::string userDataDirectory();

/**
 * Opens the user's catalog database and loads it, seeding it first only when the shipped catalog
 * differs from the one it was last seeded from (otherwise it is opened read-only). When the
 * database cannot be opened or seeded (locked past the timeout, read-only file system, not a
 * database) and `notice` is given, returns the shipped catalog and sets `notice` to say why;
 * without `notice` that is an InputError. Invalid rows are always an error.
 */
Catalog openUserCatalog(const std::string &databasePath, const std::string &shippedDirectory,
                        std::string *notice = nullptr);

} // namespace cp::model
