// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"

#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace cp::model {

namespace {

constexpr int schemaVersion = 1;
/** How long a statement waits for another program's lock before it reports it. */
constexpr int lockTimeoutMs = 2000;

struct StatementDeleter
{
    void operator()(sqlite3_stmt *statement) const { sqlite3_finalize(statement); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

Statement prepare(sqlite3 *db, const std::string &path, const char *sql)
{
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK)
        throw InputError(path, "", std::string("SQLite: ") + sqlite3_errmsg(db));
    return Statement(statement);
}

/**
 * A text column of the current row. A hand-edited database can hold NULL (or a blob) where the
 * schema means text; that is reported with the file and the row instead of reaching
 * std::string's constructor with a null pointer.
 */
std::string columnText(sqlite3_stmt *statement, int column, const std::string &where,
                       const char *name)
{
    const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, column));
    if (sqlite3_column_type(statement, column) == SQLITE_NULL || !text)
        throw InputError(where, "", std::string("the column '") + name + "' is NULL");
    return {text, static_cast<std::size_t>(sqlite3_column_bytes(statement, column))};
}

const char *originName(CatalogDatabase::Origin origin)
{
    return origin == CatalogDatabase::Origin::Shipped ? "shipped" : "user";
}

} // namespace

Catalog loadCatalogDirectory(const std::string &directory)
{
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_directory(directory, error))
        throw InputError(directory, "", "catalog directory does not exist");
    std::vector<fs::path> files;
    for (const auto &item : fs::directory_iterator(directory)) {
        if (item.is_regular_file() && item.path().extension() == ".json")
            files.push_back(item.path());
    }
    std::sort(files.begin(), files.end());
    if (files.empty())
        throw InputError(directory, "", "no catalog *.json files in the directory");
    Catalog catalog;
    for (const auto &file : files)
        catalog.addDocument(readJsonFile(file.string()), file.string());
    catalog.validateReferences();
    // The published runs the estimates are set against travel with the shipped catalog; a
    // catalog directory without them (a user's experiment) simply has none.
    for (const auto &[kind, name] :
         {std::pair {PublishedRunKind::Training, "training_validation.json"},
          std::pair {PublishedRunKind::Inference, "inference_validation.json"}}) {
        const fs::path published = fs::path(directory) / "validation" / name;
        if (fs::is_regular_file(published, error))
            catalog.setPublishedRuns(
                kind,
                {std::make_shared<const nlohmann::json>(readJsonFile(published.string())),
                 published.string()});
    }
    return catalog;
}

CatalogDatabase::CatalogDatabase(const std::string &path, Access access)
    : m_path(path)
{
    namespace fs = std::filesystem;
    const bool readOnly = access == Access::ReadOnly;
    const fs::path parent = fs::path(path).parent_path();
    std::error_code error;
    if (!parent.empty() && !readOnly)
        fs::create_directories(parent, error);
    const int flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) {
        const std::string reason = m_db ? sqlite3_errmsg(m_db) : "out of memory";
        sqlite3_close(m_db);
        m_db = nullptr;
        throw InputError(path, "", "cannot open the catalog database: " + reason);
    }
    sqlite3_busy_timeout(m_db, lockTimeoutMs);
    try {
        if (!readOnly) {
            execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
            execute("CREATE TABLE IF NOT EXISTS catalog_entries ("
                    " id TEXT PRIMARY KEY,"
                    " kind TEXT NOT NULL,"
                    " origin TEXT NOT NULL CHECK (origin IN ('shipped', 'user')),"
                    " json TEXT NOT NULL,"
                    " updated_at TEXT NOT NULL DEFAULT (datetime('now')))");
        }
        const std::string stored = metaValue("schema_version");
        if (!stored.empty() && std::atoi(stored.c_str()) > schemaVersion)
            throw InputError(path, "",
                             "the catalog database was written by a newer version (schema " + stored
                                 + ")");
        if (stored.empty() && !readOnly)
            execute("INSERT INTO meta (key, value) VALUES ('schema_version', '1')");
    } catch (...) {
        // The destructor does not run for a constructor that throws.
        sqlite3_close(m_db);
        m_db = nullptr;
        throw;
    }
}

std::string CatalogDatabase::metaValue(const char *key) const
{
    Statement statement = prepare(m_db, m_path, "SELECT value FROM meta WHERE key = ?1");
    sqlite3_bind_text(statement.get(), 1, key, -1, SQLITE_STATIC);
    const int rc = sqlite3_step(statement.get());
    if (rc == SQLITE_ROW)
        return columnText(statement.get(), 0, m_path + " (meta '" + key + "')", "value");
    if (rc != SQLITE_DONE)
        throw sqliteError(rc);
    return {};
}

std::string CatalogDatabase::storedShippedHash() const
{
    return metaValue("shipped_hash");
}

std::string CatalogDatabase::shippedHash(const Catalog &shipped)
{
    // FNV-1a over the catalog's canonical JSON: stable across runs and builds (std::hash is not
    // required to be), and a change of any figure or entry changes it.
    std::uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char c : shipped.toDocument().dump()) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

InputError CatalogDatabase::sqliteError(int rc) const
{
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        return InputError(m_path, "",
                          "the catalog database is locked by another program (waited "
                              + std::to_string(lockTimeoutMs / 1000)
                              + " s): " + sqlite3_errmsg(m_db));
    return InputError(m_path, "", std::string("SQLite: ") + sqlite3_errmsg(m_db));
}

CatalogDatabase::~CatalogDatabase()
{
    sqlite3_close(m_db);
}

void CatalogDatabase::execute(const char *sql) const
{
    char *message = nullptr;
    const int rc = sqlite3_exec(m_db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        const std::string reason = message ? message : "unknown error";
        sqlite3_free(message);
        if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
            throw sqliteError(rc);
        throw InputError(m_path, "", "SQLite: " + reason);
    }
}

void CatalogDatabase::rollBackIfOpen() const
{
    // Some errors (a full disk, a trigger's RAISE(ROLLBACK)) end the transaction themselves; a
    // second ROLLBACK would then fail with "no transaction is active" and replace the error that
    // matters. Its own failure is ignored for the same reason: the caller rethrows the original.
    if (!sqlite3_get_autocommit(m_db))
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
}

void CatalogDatabase::upsert(CatalogKind kind, const std::string &id, const std::string &json,
                             Origin origin, bool keepUserEntries)
{
    // Seeding must not overwrite what the user changed: the WHERE clause on the upsert keeps
    // rows whose origin is 'user'.
    const char *sql = keepUserEntries
        ? "INSERT INTO catalog_entries (id, kind, origin, json) VALUES (?1, ?2, ?3, ?4)"
          " ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, json = excluded.json,"
          " updated_at = datetime('now') WHERE catalog_entries.origin = 'shipped'"
        : "INSERT INTO catalog_entries (id, kind, origin, json) VALUES (?1, ?2, ?3, ?4)"
          " ON CONFLICT(id) DO UPDATE SET kind = excluded.kind, origin = excluded.origin,"
          " json = excluded.json, updated_at = datetime('now')";
    Statement statement = prepare(m_db, m_path, sql);
    const std::string kindKey = catalogKindKey(kind);
    sqlite3_bind_text(statement.get(), 1, id.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(statement.get(), 2, kindKey.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(statement.get(), 3, originName(origin), -1, SQLITE_STATIC);
    sqlite3_bind_text(statement.get(), 4, json.c_str(), -1, SQLITE_TRANSIENT);
    if (const int rc = sqlite3_step(statement.get()); rc != SQLITE_DONE)
        throw sqliteError(rc);
}

bool CatalogDatabase::seedFromDirectory(const std::string &directory)
{
    return seed(loadCatalogDirectory(directory));
}

bool CatalogDatabase::seed(const Catalog &shipped)
{
    // The shipped catalog changes only with a release: when the database already holds this one,
    // nothing is written, so commands that only read never take the write lock.
    const std::string hash = shippedHash(shipped);
    if (storedShippedHash() == hash)
        return false;
    execute("BEGIN IMMEDIATE");
    try {
        for (CatalogKind kind : allCatalogKinds()) {
            for (const std::string &id : shipped.ids(kind))
                upsert(kind, id, shipped.entryJson(id).dump(), Origin::Shipped, true);
        }
        Statement statement = prepare(
            m_db, m_path, "INSERT OR REPLACE INTO meta (key, value) VALUES ('shipped_hash', ?1)");
        sqlite3_bind_text(statement.get(), 1, hash.c_str(), -1, SQLITE_TRANSIENT);
        if (const int rc = sqlite3_step(statement.get()); rc != SQLITE_DONE)
            throw sqliteError(rc);
        execute("COMMIT");
    } catch (...) {
        rollBackIfOpen();
        throw;
    }
    return true;
}

int CatalogDatabase::importDocument(const nlohmann::json &document, const std::string &file)
{
    // Validate against the current catalog so that references (a node's GPU) can point at
    // entries already in the database.
    Catalog merged = load();
    merged.addDocument(document, file);
    merged.validateReferences();

    int count = 0;
    execute("BEGIN IMMEDIATE");
    try {
        for (CatalogKind kind : allCatalogKinds()) {
            const auto section = document.find(catalogKindKey(kind));
            if (section == document.end())
                continue;
            for (const auto &entry : *section) {
                upsert(kind, entry.at("id").get<std::string>(), entry.dump(), Origin::User, false);
                ++count;
            }
        }
        execute("COMMIT");
    } catch (...) {
        rollBackIfOpen();
        throw;
    }
    return count;
}

void CatalogDatabase::putUserEntry(CatalogKind kind, const nlohmann::json &entry)
{
    nlohmann::json document = {{"format", Catalog::formatName},
                               {"version", Catalog::formatVersion},
                               {catalogKindKey(kind), nlohmann::json::array({entry})}};
    importDocument(document, m_path);
}

bool CatalogDatabase::removeEntry(const std::string &id)
{
    Statement statement = prepare(m_db, m_path, "DELETE FROM catalog_entries WHERE id = ?1");
    sqlite3_bind_text(statement.get(), 1, id.c_str(), -1, SQLITE_TRANSIENT);
    if (const int rc = sqlite3_step(statement.get()); rc != SQLITE_DONE)
        throw sqliteError(rc);
    const bool removed = sqlite3_changes(m_db) > 0;
    // A removed shipped entry comes back at the next seed: forget the seeded hash so that the
    // next seed runs even though the shipped catalog did not change.
    if (removed)
        execute("DELETE FROM meta WHERE key = 'shipped_hash'");
    return removed;
}

CatalogDatabase::Origin CatalogDatabase::origin(const std::string &id) const
{
    Statement statement = prepare(m_db, m_path, "SELECT origin FROM catalog_entries WHERE id = ?1");
    sqlite3_bind_text(statement.get(), 1, id.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(statement.get()) != SQLITE_ROW)
        throw UnknownCatalogIdError("unknown catalog id '" + id + "'");
    const std::string value
        = columnText(statement.get(), 0, m_path + " (entry '" + id + "')", "origin");
    return value == "user" ? Origin::User : Origin::Shipped;
}

Catalog CatalogDatabase::load() const
{
    Catalog catalog;
    Statement statement
        = prepare(m_db, m_path, "SELECT id, kind, json, rowid FROM catalog_entries ORDER BY id");
    int rc;
    while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW) {
        const std::string row
            = m_path + " (row " + std::to_string(sqlite3_column_int64(statement.get(), 3)) + ")";
        const std::string id = columnText(statement.get(), 0, row, "id");
        const std::string where = m_path + " (entry '" + id + "')";
        const std::string kindKey = columnText(statement.get(), 1, where, "kind");
        const std::string text = columnText(statement.get(), 2, where, "json");
        const auto kind = catalogKindFromKey(kindKey);
        if (!kind)
            throw InputError(where, "/kind", "unknown kind '" + kindKey + "'");
        catalog.addEntry(*kind, parseJsonText(text, where), where, "");
    }
    if (rc != SQLITE_DONE)
        throw InputError(m_path, "", std::string("SQLite: ") + sqlite3_errmsg(m_db));
    return catalog;
}

} // namespace cp::model
