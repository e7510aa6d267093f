// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalog.h"
#include "model/core/inputerror.h"

#include <nlohmann/json.hpp>

#include <string>

struct sqlite3;

namespace cp::model {

/**
 * The user's catalog, persisted in an embedded SQLite database (one row per entry, the entry's
 * JSON as its payload). The shipped JSON files are the seed: seeding inserts shipped entries and
 * refreshes those still marked `shipped`, so an upgrade brings new datasheet figures, but never
 * touches an entry the user edited or added (marked `user`). Every payload is re-validated when
 * loaded, so a hand-edited database gives the same clear errors as a bad JSON file.
 */
class CatalogDatabase
{
public:
    enum class Origin { Shipped, User };
    /** ReadOnly neither creates the file nor writes; for commands that only read the catalog. */
    enum class Access { ReadWrite, ReadOnly };

    /**
     * Opens (with ReadWrite creating if needed) the database at `path`; throws InputError on
     * failure. A statement waits up to 2 s for another program's lock, then reports it as such.
     */
    explicit CatalogDatabase(const std::string &path, Access access = Access::ReadWrite);
    ~CatalogDatabase();
    CatalogDatabase(const CatalogDatabase &) = delete;
    CatalogDatabase &operator=(const CatalogDatabase &) = delete;

    const std::string &path() const { return m_path; }

    /** Seeds from every *.json catalog document in `directory` (validated as a whole first). */
    bool seedFromDirectory(const std::string &directory);
    /**
     * Seeds from one already validated catalog, unless the database was last seeded from the
     * same one (its shippedHash is kept in the meta table): returns whether it wrote anything.
     */
    bool seed(const Catalog &shipped);
    /** The hash of the shipped catalog last seeded; empty if never seeded (or after a removal). */
    std::string storedShippedHash() const;
    /** A stable hash of a catalog's canonical JSON (FNV-1a 64, as 16 hex digits). */
    static std::string shippedHash(const Catalog &shipped);
    /** Stores every entry of a validated catalog document as a user entry (import). */
    int importDocument(const nlohmann::json &document, const std::string &file);
    /** Stores one entry as a user entry, replacing any entry with that id. */
    void putUserEntry(CatalogKind kind, const nlohmann::json &entry);
    /** Removes a user entry; a shipped entry with the same id comes back at the next seed. */
    bool removeEntry(const std::string &id);
    Origin origin(const std::string &id) const;

    /** Loads and validates every entry. */
    Catalog load() const;

private:
    void execute(const char *sql) const;
    void rollBackIfOpen() const;
    std::string metaValue(const char *key) const;
    /** The error of a failed statement; a lock held too long is said to be one. */
    InputError sqliteError(int rc) const;
    void upsert(CatalogKind kind, const std::string &id, const std::string &json, Origin origin,
                bool keepUserEntries);

    std::string m_path;
    sqlite3 *m_db = nullptr;
};

/** Loads every *.json file in `directory` (sorted by name) into one catalog and checks references.
 */
Catalog loadCatalogDirectory(const std::string &directory);

} // namespace cp::model
