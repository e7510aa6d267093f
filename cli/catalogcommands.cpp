// SPDX-License-Identifier: GPL-3.0-or-later
#include "commands.h"
#include "table.h"

#include "model/catalog/catalogdatabase.h"
#include "model/catalog/catalogparser.h"
#include "model/core/atomicfile.h"
#include "model/core/humantext.h"
#include "model/core/jsonfieldreader.h"
#include "model/core/units.h"

#include <iostream>

namespace cp::cli {

namespace {

using model::CatalogKind;
namespace units = model::units;

std::vector<std::string> summaryHeader(CatalogKind kind)
{
    switch (kind) {
    case CatalogKind::Gpu:
        return {"id",       "name",     "bf16 TFLOP/s", "fp8 TFLOP/s", "memory GB",
                "HBM GB/s", "scale-up", "TDP W",        "price USD"};
    case CatalogKind::Node:
        return {"id", "name", "GPU", "GPUs", "scale-up domain", "NICs", "power w/o GPUs W", "U"};
    case CatalogKind::Nic:
        return {"id", "name", "protocol", "Gb/s", "usable", "latency us", "power W"};
    case CatalogKind::Switch:
        return {"id", "name", "protocol", "ports", "Gb/s per port", "power W", "price USD"};
    case CatalogKind::Storage:
        return {"id", "name", "kind", "read GB/s", "write GB/s", "IOPS", "capacity TB"};
    case CatalogKind::Rack:
        return {"id", "name", "cooling", "limit kW", "U"};
    case CatalogKind::Facility:
        return {"id", "name", "PUE", "USD/kWh", "kg CO2e/kWh"};
    case CatalogKind::Model:
        return {"id",       "name", "params B", "layers",  "hidden",
                "heads/kv", "ffn",  "vocab",    "experts", "attention"};
    case CatalogKind::Dataset:
        return {"id",
                "name",
                "kind",
                "samples",
                "kB per sample",
                "samples per file",
                "decode core-ms",
                "epochs"};
    }
    return {};
}

std::vector<std::string> summaryRow(const model::Catalog &catalog, CatalogKind kind,
                                    const std::string &id)
{
    switch (kind) {
    case CatalogKind::Gpu: {
        const model::GpuSpec &g = catalog.gpu(id);
        const double bf16 = std::max(g.peakFlopsPerSecond(model::Precision::BF16),
                                     g.peakFlopsPerSecond(model::Precision::FP16));
        const double fp8 = g.peakFlopsPerSecond(model::Precision::FP8);
        return {id,
                g.name,
                format("%.0f", bf16 / units::tera),
                fp8 > 0 ? format("%.0f", fp8 / units::tera) : "-",
                format("%.0f", g.memoryBytes / units::giga),
                format("%.0f", g.memoryBytesPerSecond / units::giga),
                g.scaleUpName + " " + format("%.0f GB/s", g.scaleUpBytesPerSecond / units::giga),
                format("%.0f", g.tdpWatts),
                format("%.0f", g.priceUsd)};
    }
    case CatalogKind::Node: {
        const model::NodeSpec &n = catalog.node(id);
        return {id,
                n.name,
                n.gpuId,
                std::to_string(n.gpusPerNode),
                std::to_string(n.scaleUpDomainGpus) + " GPUs",
                std::to_string(n.nicsPerNode) + " x " + n.nicId,
                format("%.0f", n.powerWithoutGpusWatts),
                std::to_string(n.rackUnits)};
    }
    case CatalogKind::Nic: {
        const model::NicSpec &n = catalog.nic(id);
        return {id,
                n.name,
                model::linkProtocolName(n.protocol),
                format("%.0f", n.bytesPerSecond * 8 / units::giga),
                format("%.0f%%", 100 * n.achievableFraction),
                format("%.1f", n.latencySeconds * 1e6),
                format("%.0f", n.powerWatts)};
    }
    case CatalogKind::Switch: {
        const model::SwitchSpec &s = catalog.networkSwitch(id);
        return {id,
                s.name,
                model::linkProtocolName(s.protocol),
                std::to_string(s.ports),
                format("%.0f", s.portBytesPerSecond * 8 / units::giga),
                format("%.0f", s.powerWatts),
                format("%.0f", s.priceUsd)};
    }
    case CatalogKind::Storage: {
        const model::StorageSpec &s = catalog.storage(id);
        return {id,
                s.name,
                s.kind,
                format("%.0f", s.readBytesPerSecond / units::giga),
                format("%.0f", s.writeBytesPerSecond / units::giga),
                format("%.0f", s.iops),
                format("%.0f", s.capacityBytes / units::tera)};
    }
    case CatalogKind::Rack: {
        const model::RackSpec &r = catalog.rack(id);
        return {id, r.name, r.cooling == model::Cooling::Air ? "air" : "liquid",
                format("%.0f", r.powerLimitWatts / 1e3), std::to_string(r.rackUnits)};
    }
    case CatalogKind::Facility: {
        const model::FacilitySpec &f = catalog.facility(id);
        return {id, f.name, format("%.2f", f.pue), format("%.3f", f.electricityUsdPerKwh),
                format("%.2f", f.carbonKgPerKwh)};
    }
    case CatalogKind::Model: {
        const model::ModelSpec &m = catalog.llm(id);
        return {id,
                m.name,
                format("%.1f", m.publishedParameters / units::giga),
                std::to_string(m.layers),
                std::to_string(m.hidden),
                std::to_string(m.heads) + "/" + std::to_string(m.kvHeads),
                std::to_string(m.ffn),
                std::to_string(m.vocab),
                m.experts > 1 ? std::to_string(m.experts) + " top-" + std::to_string(m.topK) : "-",
                model::attentionDescription(m)};
    }
    case CatalogKind::Dataset: {
        const model::DatasetSpec &d = catalog.dataset(id);
        return {id,
                d.name,
                d.kind,
                model::groupThousands(format("%.0f", d.samples)),
                model::threeDigits(d.bytesPerSample / units::kilo),
                format("%.0f", d.samplesPerFile),
                model::threeDigits(d.decodeCoreSecondsPerSample * 1e3),
                format("%.0f", d.epochs)};
    }
    }
    return {};
}

const char *catalogUsage
    = "catalog list [KIND] | catalog show ID | catalog import FILE.json | catalog export FILE.json";

/** catalog list [KIND]: one table (or JSON array) per kind. */
int runCatalogList(CliContext &context, const ParsedArguments &parsed, std::ostream &out)
{
    if (parsed.positional.size() > 2)
        throw UsageError("catalog list takes at most one kind");
    std::vector<CatalogKind> kinds = model::allCatalogKinds();
    if (parsed.positional.size() == 2) {
        const auto kind = model::catalogKindFromKey(parsed.positional[1]);
        if (!kind) {
            std::string known;
            for (CatalogKind k : model::allCatalogKinds())
                known += (known.empty() ? "" : ", ") + model::catalogKindKey(k);
            throw UsageError("unknown kind '" + parsed.positional[1] + "' (expected " + known
                             + ")");
        }
        kinds = {*kind};
    }
    const model::Catalog &catalog = context.catalog();
    if (parsed.has("json")) {
        nlohmann::json result = nlohmann::json::object();
        for (CatalogKind kind : kinds) {
            nlohmann::json section = nlohmann::json::array();
            for (const std::string &id : catalog.ids(kind))
                section.push_back(catalog.entryJson(id));
            result[model::catalogKindKey(kind)] = std::move(section);
        }
        out << (kinds.size() == 1 ? result[model::catalogKindKey(kinds[0])] : result).dump(2)
            << "\n";
        return ExitOk;
    }
    for (CatalogKind kind : kinds) {
        Table table(summaryHeader(kind));
        for (const std::string &id : catalog.ids(kind))
            table.addRow(summaryRow(catalog, kind, id));
        if (kinds.size() > 1)
            out << model::catalogKindKey(kind) << ":\n";
        out << table.render() << (kinds.size() > 1 ? "\n" : "");
    }
    return ExitOk;
}

/** catalog show ID: the entry's summary fields, kind, source and origin (or its JSON). */
int runCatalogShow(CliContext &context, const ParsedArguments &parsed, std::ostream &out)
{
    if (parsed.positional.size() != 2)
        throw UsageError("usage: catalog show ID");
    const model::Catalog &catalog = context.catalog();
    const std::string &id = parsed.positional[1];
    if (!catalog.contains(id))
        throw model::UnknownCatalogIdError("unknown catalog id '" + id + "' (see 'catalog list')");
    if (parsed.has("json")) {
        out << catalog.entryJson(id).dump(2) << "\n";
        return ExitOk;
    }
    const CatalogKind kind = *catalog.kindOf(id);
    const auto header = summaryHeader(kind);
    const auto row = summaryRow(catalog, kind, id);
    Table table({"field", "value"});
    for (std::size_t i = 0; i < header.size(); ++i)
        table.addRow({header[i], row[i]});
    table.addRow({"kind", model::catalogKindKey(kind)});
    table.addRow({"source", catalog.entryJson(id).value("source", "")});
    // Reading the origin needs no write: read-only, so a locked database is not waited for.
    model::CatalogDatabase database(context.databasePath, model::CatalogDatabase::Access::ReadOnly);
    table.addRow(
        {"origin",
         database.origin(id) == model::CatalogDatabase::Origin::User ? "user" : "shipped"});
    out << table.render();
    return ExitOk;
}

/** catalog import FILE: the document's entries into the user's database. */
int runCatalogImport(CliContext &context, const ParsedArguments &parsed, std::ostream &out)
{
    if (parsed.positional.size() != 2)
        throw UsageError("usage: catalog import FILE.json");
    const std::string &file = parsed.positional[1];
    model::CatalogDatabase database(context.databasePath);
    database.seedFromDirectory(context.catalogDirectory);
    const int count = database.importDocument(model::readJsonFile(file), file);
    if (parsed.has("json"))
        out << nlohmann::json {{"imported", count}, {"database", context.databasePath}}.dump(2)
            << "\n";
    else
        out << "imported " << count << " entries from " << file << " into " << context.databasePath
            << "\n";
    return ExitOk;
}

/** catalog export FILE: every entry as one catalog document, written atomically. */
int runCatalogExport(CliContext &context, const ParsedArguments &parsed, std::ostream &out)
{
    if (parsed.positional.size() != 2)
        throw UsageError("usage: catalog export FILE.json");
    const std::string &file = parsed.positional[1];
    refuseToOverwriteInputs("catalog export", file, {context.databasePath});
    const model::Catalog &catalog = context.catalog();
    model::writeFileAtomically(file, catalog.toDocument().dump(2) + "\n");
    if (parsed.has("json"))
        out << nlohmann::json {{"exported", catalog.size()}, {"file", file}}.dump(2) << "\n";
    else
        out << "exported " << catalog.size() << " entries to " << file << "\n";
    return ExitOk;
}

} // namespace

int runCatalogCommand(CliContext &context, const std::vector<std::string> &args, std::ostream &out)
{
    const auto specs = withCommonOptions({});
    const ParsedArguments parsed = parseArguments(args, specs, "catalog");
    if (parsed.has("help")) {
        out << usageText("clusterplanner-cli " + std::string(catalogUsage), specs);
        return ExitOk;
    }
    if (parsed.positional.empty())
        throw UsageError(std::string("missing subcommand: ") + catalogUsage);
    const std::string sub = parsed.positional[0];
    if (sub == "list")
        return runCatalogList(context, parsed, out);
    if (sub == "show")
        return runCatalogShow(context, parsed, out);
    if (sub == "import")
        return runCatalogImport(context, parsed, out);
    if (sub == "export")
        return runCatalogExport(context, parsed, out);
    throw UsageError("unknown subcommand 'catalog " + sub + "': " + catalogUsage);
}

} // namespace cp::cli
