// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogpaths.h"

#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"

#include <cstdlib>
#include <filesystem>
#include <memory>

#ifndef CP_SOURCE_DATA_DIR
#define CP_SOURCE_DATA_DIR "."
#endif

namespace cp::model {

namespace {
namespace fs = std::filesystem;

std::string environment(const char *name)
{
    const char *value = std::getenv(name);
    return value ? std::string(value) : std::string();
}

std::string findDataDirectory(const char *variable, const char *leaf)
{
    if (std::string fromEnv = environment(variable); !fromEnv.empty())
        return fromEnv;
    std::error_code error;
    const fs::path exe = fs::read_symlink("/proc/self/exe", error);
    if (!error) {
        // <prefix>/bin/program -> <prefix>/share/clusterplanner/<leaf>
        const fs::path installed
            = exe.parent_path().parent_path() / "share" / "clusterplanner" / leaf;
        if (fs::is_directory(installed, error))
            return installed.string();
    }
    return (fs::path(CP_SOURCE_DATA_DIR) / leaf).string();
}
} // namespace

std::string shippedCatalogDirectory()
{
    return findDataDirectory("CLUSTERPLANNER_CATALOG_DIR", "catalogs");
}

std::string shippedSamplesDirectory()
{
    return findDataDirectory("CLUSTERPLANNER_SAMPLES_DIR", "samples");
}

std::string userDataDirectory()
{
    if (std::string xdg = environment("XDG_DATA_HOME"); !xdg.empty())
        return (fs::path(xdg) / "clusterplanner").string();
    if (std::string home = environment("HOME"); !home.empty())
        return (fs::path(home) / ".local" / "share" / "clusterplanner").string();
    return (fs::temp_directory_path() / "clusterplanner").string();
}

std::string shippedDocsDirectory()
{
    return findDataDirectory("CLUSTERPLANNER_DOCS_DIR", "docs");
}

std::string defaultDatabasePath()
{
    if (std::string fromEnv = environment("CLUSTERPLANNER_DB"); !fromEnv.empty())
        return fromEnv;
    return (fs::path(userDataDirectory()) / "catalog.sqlite").string();
}

Catalog openUserCatalog(const std::string &databasePath, const std::string &shippedDirectory,
                        std::string *notice)
{
    // The shipped files are read first: an error in them is the installation's, never hidden.
    Catalog shipped = loadCatalogDirectory(shippedDirectory);
    std::unique_ptr<CatalogDatabase> database;
    try {
        // Most commands only read: when the database already holds this release's shipped
        // catalog, it is opened read-only and nothing is locked for writing.
        std::error_code error;
        // Only the standard place is made on first use: a --db or $CLUSTERPLANNER_DB in a
        // folder that does not exist is more likely mistyped than meant.
        const fs::path folder = fs::path(databasePath).parent_path();
        if (!folder.empty() && !fs::exists(folder, error)
            && folder != fs::path(userDataDirectory()))
            throw InputError(databasePath, "",
                             "its folder " + folder.string()
                                 + " does not exist (mistyped?); it is not created");
        if (fs::exists(databasePath, error)) {
            try {
                database = std::make_unique<CatalogDatabase>(databasePath,
                                                             CatalogDatabase::Access::ReadOnly);
                if (database->storedShippedHash() != CatalogDatabase::shippedHash(shipped))
                    database.reset();
            } catch (const InputError &) {
                // An empty file or an older database without the hash: opened for writing below,
                // which creates what is missing or reports the real problem.
                database.reset();
            }
        }
        if (!database) {
            database = std::make_unique<CatalogDatabase>(databasePath);
            database->seed(shipped);
        }
    } catch (const InputError &error) {
        if (!notice)
            throw;
        // A locked, read-only or unreadable database must not stop the program: it runs on the
        // shipped catalog, without the user's entries, and says so.
        *notice = std::string(error.what())
            + "; using the shipped catalog (read-only, without your own entries)";
        return shipped;
    }
    Catalog catalog = database->load();
    catalog.validateReferences();
    catalog.copyPublishedRunsFrom(shipped);
    return catalog;
}

} // namespace cp::model
