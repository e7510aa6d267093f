// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/catalog/catalog.h"

#include "model/catalog/catalogparser.h"
#include "model/core/inputerror.h"
#include "model/core/jsonfieldreader.h"

namespace cp::model {

namespace {

template<typename Spec>
const Spec &lookup(const std::map<std::string, Spec> &items, const std::string &id,
                   const char *what, const char *kindKey)
{
    const auto it = items.find(id);
    if (it != items.end())
        return it->second;
    std::string known;
    for (const auto &[key, value] : items)
        known += (known.empty() ? "" : ", ") + key;
    throw UnknownCatalogIdError("unknown " + std::string(what) + " id '" + id
                                + "' (known: " + (known.empty() ? std::string("none") : known)
                                + "; see 'catalog list " + kindKey + "')");
}

} // namespace

void checkCatalogHeader(const nlohmann::json &document, const std::string &file)
{
    if (!document.is_object())
        throw InputError(file, "/", "a catalog document must be a JSON object");
    const auto format = document.find("format");
    if (format == document.end() || !format->is_string() || *format != Catalog::formatName)
        throw InputError(file, "/format", std::string("must be \"") + Catalog::formatName + "\"");
    const auto version = document.find("version");
    if (version == document.end() || !version->is_number_integer())
        throw InputError(file, "/version", "required integer is missing");
    if (*version != Catalog::formatVersion)
        throw InputError(file, "/version",
                         "version " + version->dump() + " is not supported (this program reads "
                             + std::to_string(Catalog::formatVersion) + ")");
    for (auto it = document.begin(); it != document.end(); ++it) {
        if (it.key() == "format" || it.key() == "version" || it.key() == "description")
            continue;
        if (!catalogKindFromKey(it.key()))
            throw InputError(file, "/" + escapeJsonPointerToken(it.key()),
                             "unknown section (expected gpus, nodes, nics, switches, storage, "
                             "racks, facilities, models or datasets)");
        if (!it->is_array())
            throw InputError(file, "/" + it.key(), "expected an array of entries");
    }
}

void Catalog::addDocument(const nlohmann::json &document, const std::string &file)
{
    checkCatalogHeader(document, file);
    // Validate into a copy so that a bad document leaves this catalog untouched.
    Catalog staged = *this;
    std::map<std::string, std::string> idsInDocument;
    for (CatalogKind kind : allCatalogKinds()) {
        const auto section = document.find(catalogKindKey(kind));
        if (section == document.end())
            continue;
        for (std::size_t i = 0; i < section->size(); ++i) {
            const std::string pointer = "/" + catalogKindKey(kind) + "/" + std::to_string(i);
            staged.addEntry(kind, (*section)[i], file, pointer);
            const std::string id = (*section)[i].at("id").get<std::string>();
            if (auto [it, inserted] = idsInDocument.emplace(id, pointer); !inserted)
                throw InputError(file, pointer + "/id",
                                 "duplicate id '" + id + "' (also at " + it->second + ")");
        }
    }
    *this = std::move(staged);
}

void Catalog::addEntry(CatalogKind kind, const nlohmann::json &entry, const std::string &file,
                       const std::string &pointer)
{
    std::string id;
    switch (kind) {
    case CatalogKind::Gpu: {
        GpuSpec spec = parseGpu(entry, file, pointer);
        id = spec.id;
        m_gpus[id] = std::move(spec);
        break;
    }
    case CatalogKind::Node: {
        NodeSpec spec = parseNode(entry, file, pointer);
        id = spec.id;
        m_nodes[id] = std::move(spec);
        break;
    }
    case CatalogKind::Nic: {
        NicSpec spec = parseNic(entry, file, pointer);
        id = spec.id;
        m_nics[id] = std::move(spec);
        break;
    }
    case CatalogKind::Switch: {
        SwitchSpec spec = parseSwitch(entry, file, pointer);
        id = spec.id;
        m_switches[id] = std::move(spec);
        break;
    }
    case CatalogKind::Storage: {
        StorageSpec spec = parseStorage(entry, file, pointer);
        id = spec.id;
        m_storage[id] = std::move(spec);
        break;
    }
    case CatalogKind::Rack: {
        RackSpec spec = parseRack(entry, file, pointer);
        id = spec.id;
        m_racks[id] = std::move(spec);
        break;
    }
    case CatalogKind::Facility: {
        FacilitySpec spec = parseFacility(entry, file, pointer);
        id = spec.id;
        m_facilities[id] = std::move(spec);
        break;
    }
    case CatalogKind::Model: {
        ModelSpec spec = parseModel(entry, file, pointer);
        id = spec.id;
        m_models[id] = std::move(spec);
        break;
    }
    case CatalogKind::Dataset: {
        DatasetSpec spec = parseDataset(entry, file, pointer);
        id = spec.id;
        m_datasets[id] = std::move(spec);
        break;
    }
    }
    const auto existing = m_entries.find(id);
    if (existing != m_entries.end() && existing->second.kind != kind)
        throw InputError(file, pointer + "/id",
                         "id '" + id + "' is already used by an entry in "
                             + catalogKindKey(existing->second.kind) + " ("
                             + existing->second.origin + ")");
    m_entries[id] = Entry {kind, entry, file + "#" + pointer};
}

void Catalog::validateReferences() const
{
    for (const auto &[id, node] : m_nodes) {
        const Entry &entry = m_entries.at(id);
        const auto hash = entry.origin.find('#');
        const std::string file = entry.origin.substr(0, hash);
        const std::string pointer = hash == std::string::npos ? "" : entry.origin.substr(hash + 1);
        if (!m_gpus.contains(node.gpuId))
            throw InputError(file, pointer + "/gpu", "unknown GPU id '" + node.gpuId + "'");
        if (!m_nics.contains(node.nicId))
            throw InputError(file, pointer + "/nic", "unknown NIC id '" + node.nicId + "'");
        if (!node.storageNicId.empty() && !m_nics.contains(node.storageNicId))
            throw InputError(file, pointer + "/storage_nic",
                             "unknown NIC id '" + node.storageNicId + "'");
    }
    for (const auto &[id, storage] : m_storage) {
        if (storage.nicId.empty() || m_nics.contains(storage.nicId))
            continue;
        const std::string &origin = m_entries.at(id).origin;
        const auto hash = origin.find('#');
        throw InputError(origin.substr(0, hash),
                         (hash == std::string::npos ? "" : origin.substr(hash + 1)) + "/nic",
                         "unknown NIC id '" + storage.nicId + "'");
    }
}

const GpuSpec &Catalog::gpu(const std::string &id) const
{
    return lookup(m_gpus, id, "GPU", "gpus");
}
const NodeSpec &Catalog::node(const std::string &id) const
{
    return lookup(m_nodes, id, "node", "nodes");
}
const NicSpec &Catalog::nic(const std::string &id) const
{
    return lookup(m_nics, id, "NIC", "nics");
}
const SwitchSpec &Catalog::networkSwitch(const std::string &id) const
{
    return lookup(m_switches, id, "switch", "switches");
}
const StorageSpec &Catalog::storage(const std::string &id) const
{
    return lookup(m_storage, id, "storage", "storage");
}
const RackSpec &Catalog::rack(const std::string &id) const
{
    return lookup(m_racks, id, "rack", "racks");
}
const FacilitySpec &Catalog::facility(const std::string &id) const
{
    return lookup(m_facilities, id, "facility", "facilities");
}
const ModelSpec &Catalog::llm(const std::string &id) const
{
    return lookup(m_models, id, "model", "models");
}
const DatasetSpec &Catalog::dataset(const std::string &id) const
{
    return lookup(m_datasets, id, "dataset", "datasets");
}

std::optional<CatalogKind> Catalog::kindOf(const std::string &id) const
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        return std::nullopt;
    return it->second.kind;
}

std::vector<std::string> Catalog::ids(CatalogKind kind) const
{
    std::vector<std::string> result;
    for (const auto &[id, entry] : m_entries) {
        if (entry.kind == kind)
            result.push_back(id);
    }
    return result;
}

const nlohmann::json &Catalog::entryJson(const std::string &id) const
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        throw UnknownCatalogIdError("unknown catalog id '" + id + "' (see 'catalog list')");
    return it->second.json;
}

std::string Catalog::nameOf(const std::string &id) const
{
    const auto it = m_entries.find(id);
    return it == m_entries.end() ? id : it->second.json.value("name", id);
}

const std::string &Catalog::entryOrigin(const std::string &id) const
{
    const auto it = m_entries.find(id);
    if (it == m_entries.end())
        throw UnknownCatalogIdError("unknown catalog id '" + id + "' (see 'catalog list')");
    return it->second.origin;
}

nlohmann::json Catalog::toDocument() const
{
    nlohmann::json document = {{"format", formatName}, {"version", formatVersion}};
    for (CatalogKind kind : allCatalogKinds()) {
        nlohmann::json section = nlohmann::json::array();
        for (const std::string &id : ids(kind))
            section.push_back(m_entries.at(id).json);
        if (!section.empty())
            document[catalogKindKey(kind)] = std::move(section);
    }
    return document;
}

const PublishedRunTable &Catalog::publishedRuns(PublishedRunKind kind) const
{
    return kind == PublishedRunKind::Training ? m_publishedTrainingRuns : m_publishedInferenceRuns;
}

void Catalog::setPublishedRuns(PublishedRunKind kind, PublishedRunTable table)
{
    (kind == PublishedRunKind::Training ? m_publishedTrainingRuns : m_publishedInferenceRuns)
        = std::move(table);
}

void Catalog::copyPublishedRunsFrom(const Catalog &other)
{
    m_publishedTrainingRuns = other.m_publishedTrainingRuns;
    m_publishedInferenceRuns = other.m_publishedInferenceRuns;
}

} // namespace cp::model
