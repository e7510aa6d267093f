// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/catalog/catalogitems.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::model {

/** A lookup of a catalog id that does not exist; the message lists the known ids of that kind. */
class UnknownCatalogIdError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/** Which published measurements a table holds. */
enum class PublishedRunKind { Training, Inference };

/** A published-runs table as read from its file (the document is shared between copies). */
struct PublishedRunTable
{
    std::shared_ptr<const nlohmann::json> document;
    std::string file;
};

/**
 * The validated hardware and model catalog in memory. Entries come from catalog documents
 * (`{"format": "clusterplanner-catalog", "version": 1, "gpus": [...], ...}`); every entry is
 * checked field by field when added, and references between entries (a node's GPU and NIC) when
 * validateReferences() runs. Ids are unique across all kinds so that `catalog show ID` is
 * unambiguous.
 */
class Catalog
{
public:
    static constexpr const char *formatName = "clusterplanner-catalog";
    static constexpr int formatVersion = 1;

    /** Validates a whole document and adds its entries; on error nothing is added. */
    void addDocument(const nlohmann::json &document, const std::string &file);
    /** Adds (or replaces) one entry given as its JSON object. */
    void addEntry(CatalogKind kind, const nlohmann::json &entry, const std::string &file,
                  const std::string &pointer);
    /** Checks that ids referenced by entries exist; throws InputError naming the entry. */
    void validateReferences() const;

    const GpuSpec &gpu(const std::string &id) const;
    const NodeSpec &node(const std::string &id) const;
    const NicSpec &nic(const std::string &id) const;
    const SwitchSpec &networkSwitch(const std::string &id) const;
    const StorageSpec &storage(const std::string &id) const;
    const RackSpec &rack(const std::string &id) const;
    const FacilitySpec &facility(const std::string &id) const;
    const ModelSpec &llm(const std::string &id) const;
    const DatasetSpec &dataset(const std::string &id) const;

    bool contains(const std::string &id) const { return m_entries.contains(id); }
    std::optional<CatalogKind> kindOf(const std::string &id) const;
    /** Ids of one kind, sorted. */
    std::vector<std::string> ids(CatalogKind kind) const;
    /** The name people read for an entry ("RoCE v2 400 GbE (ConnectX-7)"); the id itself when
     * the catalog has no such entry or it has no name. */
    std::string nameOf(const std::string &id) const;
    /** The JSON object an entry was defined by (what the database stores and export writes). */
    const nlohmann::json &entryJson(const std::string &id) const;
    /** Where an entry came from: "file#pointer" or "database". */
    const std::string &entryOrigin(const std::string &id) const;
    /** All entries as one catalog document. */
    nlohmann::json toDocument() const;
    std::size_t size() const { return m_entries.size(); }

    const std::map<std::string, GpuSpec> &gpus() const { return m_gpus; }
    const std::map<std::string, NodeSpec> &nodes() const { return m_nodes; }
    const std::map<std::string, ModelSpec> &models() const { return m_models; }

    /**
     * The tables of published measurements shipped beside the catalog (catalogs/validation/
     * training_validation.json and inference_validation.json), with their sources, that the
     * estimates are set against. Not catalog entries (nothing is stored in the database); a null
     * document when the catalog directory has none.
     */
    const PublishedRunTable &publishedRuns(PublishedRunKind kind) const;
    void setPublishedRuns(PublishedRunKind kind, PublishedRunTable table);
    /** Shares `other`'s published-run tables (the database's catalog gets the shipped ones). */
    void copyPublishedRunsFrom(const Catalog &other);

private:
    struct Entry
    {
        CatalogKind kind;
        nlohmann::json json;
        std::string origin;
    };
    std::map<std::string, Entry> m_entries;
    std::map<std::string, GpuSpec> m_gpus;
    std::map<std::string, NodeSpec> m_nodes;
    std::map<std::string, NicSpec> m_nics;
    std::map<std::string, SwitchSpec> m_switches;
    std::map<std::string, StorageSpec> m_storage;
    std::map<std::string, RackSpec> m_racks;
    std::map<std::string, FacilitySpec> m_facilities;
    std::map<std::string, ModelSpec> m_models;
    std::map<std::string, DatasetSpec> m_datasets;
    PublishedRunTable m_publishedTrainingRuns; ///< shared between copies
    PublishedRunTable m_publishedInferenceRuns;
};

/** Checks the format header of a catalog document and returns the kinds it holds. */
void checkCatalogHeader(const nlohmann::json &document, const std::string &file);

} // namespace cp::model
