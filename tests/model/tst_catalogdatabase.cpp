// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogpaths.h"
#include "model/core/inputerror.h"

#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

using namespace cp::model;

class TestCatalogDatabase : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::string databasePath(const char *name) const
    {
        return m_dir.filePath(QString::fromLatin1(name)).toStdString();
    }
    static std::string shipped() { return CP_SOURCE_DIR "/catalogs"; }

    /** Runs SQL on the database file directly, as a hand edit or another program would. */
    static void rawSql(const std::string &path, const char *sql)
    {
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        char *message = nullptr;
        const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
        const std::string reason = message ? message : "";
        sqlite3_free(message);
        sqlite3_close(db);
        QVERIFY2(rc == SQLITE_OK, reason.c_str());
    }

    /** A valid document of two new nodes, "my-node-1" then "my-node-2". */
    static nlohmann::json twoNodes()
    {
        nlohmann::json first = loadCatalogDirectory(shipped()).entryJson("dgx-h100");
        first["id"] = "my-node-1";
        nlohmann::json second = first;
        second["id"] = "my-node-2";
        return {{"format", "clusterplanner-catalog"}, {"version", 1}, {"nodes", {first, second}}};
    }

private slots:
    void seedAndLoadRoundTrip()
    {
        const Catalog fromJson = loadCatalogDirectory(shipped());
        CatalogDatabase database(databasePath("roundtrip.sqlite"));
        database.seed(fromJson);
        const Catalog fromDatabase = database.load();
        QCOMPARE(fromDatabase.size(), fromJson.size());
        QVERIFY(fromDatabase.toDocument() == fromJson.toDocument());
        QVERIFY(database.origin("h100-sxm5-80gb") == CatalogDatabase::Origin::Shipped);
    }

    void userEditsSurviveReseedAndReopen()
    {
        const std::string path = databasePath("user.sqlite");
        const Catalog shippedCatalog = loadCatalogDirectory(shipped());
        {
            CatalogDatabase database(path);
            database.seed(shippedCatalog);
            nlohmann::json edited = shippedCatalog.entryJson("h100-sxm5-80gb");
            edited["price_usd"] = 21000;
            database.putUserEntry(CatalogKind::Gpu, edited);
            nlohmann::json added = edited;
            added["id"] = "h100-sxm5-80gb-discounted";
            database.putUserEntry(CatalogKind::Gpu, added);
        }
        // An upgrade re-seeds from the shipped files: the user's entries must stay as they are.
        CatalogDatabase database(path);
        database.seed(shippedCatalog);
        const Catalog loaded = database.load();
        QCOMPARE(loaded.gpu("h100-sxm5-80gb").priceUsd, 21000.0);
        QCOMPARE(loaded.gpu("h100-sxm5-80gb-discounted").priceUsd, 21000.0);
        QVERIFY(database.origin("h100-sxm5-80gb") == CatalogDatabase::Origin::User);
        QCOMPARE(loaded.size(), shippedCatalog.size() + 1);
    }

    void shippedEntriesAreRefreshedOnUpgrade()
    {
        const std::string path = databasePath("upgrade.sqlite");
        Catalog oldRelease = loadCatalogDirectory(shipped());
        nlohmann::json stale = oldRelease.entryJson("l4");
        stale["price_usd"] = 1;
        oldRelease.addEntry(CatalogKind::Gpu, stale, "old.json", "/gpus/0");
        CatalogDatabase database(path);
        database.seed(oldRelease);
        QCOMPARE(database.load().gpu("l4").priceUsd, 1.0);
        database.seedFromDirectory(shipped());
        QCOMPARE(database.load().gpu("l4").priceUsd,
                 loadCatalogDirectory(shipped()).gpu("l4").priceUsd);
    }

    void importRejectsInvalidDocumentAndKeepsDatabase()
    {
        CatalogDatabase database(databasePath("import.sqlite"));
        database.seedFromDirectory(shipped());
        const std::size_t before = database.load().size();
        nlohmann::json node = loadCatalogDirectory(shipped()).entryJson("dgx-h100");
        node["id"] = "my-node";
        node["nic"] = "no-such-nic";
        const nlohmann::json document
            = {{"format", "clusterplanner-catalog"}, {"version", 1}, {"nodes", {node}}};
        try {
            database.importDocument(document, "mine.json");
            QFAIL("import of a node with an unknown NIC must fail");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()),
                     std::string("mine.json: /nodes/0/nic: unknown NIC id 'no-such-nic'"));
        }
        QCOMPARE(database.load().size(), before);
        node["nic"] = "ib-ndr-400";
        const nlohmann::json fixed
            = {{"format", "clusterplanner-catalog"}, {"version", 1}, {"nodes", {node}}};
        QCOMPARE(database.importDocument(fixed, "mine.json"), 1);
        QCOMPARE(database.load().size(), before + 1);
        QVERIFY(database.removeEntry("my-node"));
        QCOMPARE(database.load().size(), before);
    }

    void corruptPayloadIsReported()
    {
        const std::string path = databasePath("corrupt.sqlite");
        {
            CatalogDatabase database(path);
            database.seedFromDirectory(shipped());
        }
        // A hand-edited database: the row's JSON says the T4 has -1 GB of memory.
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        QCOMPARE(
            sqlite3_exec(db,
                         "UPDATE catalog_entries SET json = json_set(json, '$.memory_mib', -1) "
                         "WHERE id = 't4'",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(db);
        CatalogDatabase database(path);
        try {
            database.load();
            QFAIL("a corrupt row must be reported");
        } catch (const InputError &error) {
            const std::string message = error.what();
            QVERIFY2(message.find("(entry 't4')") != std::string::npos, message.c_str());
            QVERIFY2(message.find("/memory_mib: must be greater than 0") != std::string::npos,
                     message.c_str());
        }
    }

    void importFailingMidTransactionRollsBack()
    {
        // The document is valid, so validation passes and the transaction starts; a trigger then
        // refuses the second row after the first was written. The first must be rolled back.
        const std::string path = databasePath("midimport.sqlite");
        {
            CatalogDatabase database(path);
            database.seedFromDirectory(shipped());
        }
        rawSql(path,
               "CREATE TRIGGER refuse BEFORE INSERT ON catalog_entries"
               " WHEN NEW.id = 'my-node-2' BEGIN SELECT RAISE(ABORT, 'refused by trigger'); END");
        CatalogDatabase database(path);
        const std::size_t before = database.load().size();
        try {
            database.importDocument(twoNodes(), "mine.json");
            QFAIL("the trigger must make the import fail");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()), path + ": SQLite: refused by trigger");
        }
        QCOMPARE(database.load().size(), before);
        QVERIFY_THROWS_EXCEPTION(UnknownCatalogIdError, database.origin("my-node-1"));
    }

    void errorThatEndsTheTransactionIsKept()
    {
        // RAISE(ROLLBACK) ends the transaction itself, as a full disk does: the error reported
        // must be the trigger's, not "cannot rollback - no transaction is active".
        const std::string path = databasePath("rolledback.sqlite");
        {
            CatalogDatabase database(path);
            database.seedFromDirectory(shipped());
        }
        rawSql(path,
               "CREATE TRIGGER refuse BEFORE INSERT ON catalog_entries"
               " WHEN NEW.id = 'my-node-2' BEGIN SELECT RAISE(ROLLBACK, 'disk full, say'); END");
        CatalogDatabase database(path);
        const std::size_t before = database.load().size();
        try {
            database.importDocument(twoNodes(), "mine.json");
            QFAIL("the trigger must make the import fail");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()), path + ": SQLite: disk full, say");
        }
        QCOMPARE(database.load().size(), before);

        // Seeding a fresh database the same way: the trigger refuses the shipped 'l4'.
        const std::string fresh = databasePath("rolledback-seed.sqlite");
        {
            CatalogDatabase created(fresh);
        }
        rawSql(fresh,
               "CREATE TRIGGER refuse BEFORE INSERT ON catalog_entries"
               " WHEN NEW.id = 'l4' BEGIN SELECT RAISE(ROLLBACK, 'no room for l4'); END");
        CatalogDatabase seeded(fresh);
        try {
            seeded.seedFromDirectory(shipped());
            QFAIL("the trigger must make seeding fail");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()), fresh + ": SQLite: no room for l4");
        }
        QCOMPARE(seeded.load().size(), std::size_t(0));
    }

    void nullColumnIsReported()
    {
        const std::string path = databasePath("null.sqlite");
        std::size_t shippedEntries = 0;
        {
            CatalogDatabase database(path);
            database.seedFromDirectory(shipped());
            shippedEntries = database.load().size();
        }
        // Seeding wrote rows 1..N; the hand-added row is N + 1. SQLite allows a NULL in a TEXT
        // PRIMARY KEY column.
        rawSql(path,
               "INSERT INTO catalog_entries (id, kind, origin, json)"
               " VALUES (NULL, 'gpus', 'user', '{}')");
        CatalogDatabase database(path);
        try {
            database.load();
            QFAIL("a NULL id must be reported");
        } catch (const InputError &error) {
            QCOMPARE(std::string(error.what()),
                     path + " (row " + std::to_string(shippedEntries + 1)
                         + "): the column 'id' is NULL");
        }
    }

    void numberOverflowInARowIsReported()
    {
        const std::string path = databasePath("overflow.sqlite");
        {
            CatalogDatabase database(path);
            database.seedFromDirectory(shipped());
        }
        rawSql(path,
               "UPDATE catalog_entries SET json = '{\"id\": \"t4\", \"memory_mib\": 1e400}'"
               " WHERE id = 't4'");
        CatalogDatabase database(path);
        try {
            database.load();
            QFAIL("1e400 in a row must be reported");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), path + " (entry 't4')");
            QCOMPARE(error.pointer(), std::string("/memory_mib"));
        }
    }

    void reseedOfTheSameCatalogWritesNothing()
    {
        const std::string path = databasePath("reseed.sqlite");
        const Catalog shippedCatalog = loadCatalogDirectory(shipped());
        {
            CatalogDatabase database(path);
            QVERIFY(database.seed(shippedCatalog));
            QCOMPARE(database.storedShippedHash(), CatalogDatabase::shippedHash(shippedCatalog));
        }
        // Any write to the entries now fails: a second seed of the same catalog must not try.
        rawSql(path,
               "CREATE TRIGGER no_insert BEFORE INSERT ON catalog_entries"
               " BEGIN SELECT RAISE(ABORT, 'written'); END;"
               "CREATE TRIGGER no_update BEFORE UPDATE ON catalog_entries"
               " BEGIN SELECT RAISE(ABORT, 'written'); END");
        CatalogDatabase database(path);
        QVERIFY(!database.seed(shippedCatalog));
        // A changed shipped catalog (a new release) is written: the trigger shows it tried.
        Catalog newRelease = shippedCatalog;
        nlohmann::json l4 = newRelease.entryJson("l4");
        l4["price_usd"] = 1;
        newRelease.addEntry(CatalogKind::Gpu, l4, "new.json", "/gpus/0");
        QVERIFY(CatalogDatabase::shippedHash(newRelease)
                != CatalogDatabase::shippedHash(shippedCatalog));
        QVERIFY_THROWS_EXCEPTION(InputError, database.seed(newRelease));
    }

    void removedShippedEntryComesBackAtTheNextSeed()
    {
        CatalogDatabase database(databasePath("removed.sqlite"));
        const Catalog shippedCatalog = loadCatalogDirectory(shipped());
        database.seed(shippedCatalog);
        QVERIFY(database.removeEntry("l4"));
        QVERIFY(!database.load().contains("l4"));
        QVERIFY(database.seed(shippedCatalog));
        QVERIFY(database.load().contains("l4"));
    }

    void readingCommandsNeedNoWriteLock()
    {
        const std::string path = databasePath("readonly.sqlite");
        const Catalog first = openUserCatalog(path, shipped());
        // Another program holds the write lock (a RESERVED lock: readers may still read).
        sqlite3 *other = nullptr;
        QCOMPARE(sqlite3_open(path.c_str(), &other), SQLITE_OK);
        QCOMPARE(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        // Seeded with this catalog already, so it is only read: no wait, no error, no notice.
        std::string notice;
        const Catalog again = openUserCatalog(path, shipped(), &notice);
        QCOMPARE(again.size(), first.size());
        QCOMPARE(notice, std::string());

        // A database that needs seeding while locked: after the 2 s timeout the shipped catalog
        // is used, and the notice says why.
        const std::string stale = databasePath("locked.sqlite");
        {
            Catalog oldRelease = loadCatalogDirectory(shipped());
            nlohmann::json l4 = oldRelease.entryJson("l4");
            l4["price_usd"] = 1;
            oldRelease.addEntry(CatalogKind::Gpu, l4, "old.json", "/gpus/0");
            CatalogDatabase database(stale);
            database.seed(oldRelease);
        }
        sqlite3 *locker = nullptr;
        QCOMPARE(sqlite3_open(stale.c_str(), &locker), SQLITE_OK);
        QCOMPARE(sqlite3_exec(locker, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        const Catalog fallback = openUserCatalog(stale, shipped(), &notice);
        QCOMPARE(fallback.gpu("l4").priceUsd, loadCatalogDirectory(shipped()).gpu("l4").priceUsd);
        QVERIFY2(notice.find("the catalog database is locked by another program (waited 2 s)")
                     != std::string::npos,
                 notice.c_str());
        QVERIFY2(notice.find("using the shipped catalog") != std::string::npos, notice.c_str());
        // Without a notice to fill, the lock is an error naming the file.
        try {
            openUserCatalog(stale, shipped());
            QFAIL("a locked database must be reported");
        } catch (const InputError &error) {
            QCOMPARE(error.file(), stale);
        }
        sqlite3_exec(locker, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(locker);
        sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
        sqlite3_close(other);
    }
};

QTEST_APPLESS_MAIN(TestCatalogDatabase)
#include "tst_catalogdatabase.moc"
