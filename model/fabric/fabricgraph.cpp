// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/fabric/fabricgraph.h"

#include <stdexcept>

namespace cp::model {

FabricGraph::FabricGraph(std::string topologyName)
    : m_topologyName(std::move(topologyName))
{ }

void FabricGraph::reserve(std::size_t vertices, std::size_t links)
{
    // adjacency_list keeps its containers as (public) members and has no reserve of its own.
    (*m_graph).m_vertices.reserve(vertices);
    (*m_graph).m_edges.reserve(links);
}

FabricVertexId FabricGraph::addVertex(FabricVertex vertex, std::size_t expectedLinks)
{
    const bool endpoint = vertex.isEndpoint();
    const FabricVertexId id = boost::add_vertex(std::move(vertex), *m_graph);
    if (expectedLinks > 0)
        (*m_graph).m_vertices[id].m_out_edges.reserve(expectedLinks);
    if (endpoint)
        m_endpoints.push_back(id);
    return id;
}

void FabricGraph::addLink(FabricVertexId a, FabricVertexId b, const FabricLink &link)
{
    if (a == b || a >= vertexCount() || b >= vertexCount())
        throw std::invalid_argument("fabric link must join two different existing vertices");
    if (!(link.bytesPerSecond > 0))
        throw std::invalid_argument("fabric link bandwidth must be positive");
    FabricLink stored = link;
    stored.id = linkCount();
    boost::add_edge(a, b, stored, *m_graph);
}

std::string fabricTierName(int tier)
{
    static const char *const names[] = {"", "leaf", "spine", "core", "super-spine"};
    return tier >= 0 && tier <= 4 ? names[tier] : "tier " + std::to_string(tier);
}

std::string linkMediumName(LinkMedium medium)
{
    switch (medium) {
    case LinkMedium::Copper:
        return "copper";
    case LinkMedium::Optical:
        return "optical";
    case LinkMedium::Internal:
        return "internal";
    }
    return "?";
}

std::string linkClassName(LinkClass linkClass)
{
    switch (linkClass) {
    case LinkClass::ScaleUp:
        return "scale-up";
    case LinkClass::Access:
        return "access";
    case LinkClass::Fabric:
        return "fabric";
    case LinkClass::Global:
        return "global";
    }
    return "?";
}

} // namespace cp::model
