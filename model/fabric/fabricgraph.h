// SPDX-License-Identifier: GPL-3.0-or-later
// The network as a graph: endpoints, scale-up switches (NVSwitch), scale-out switches and
// routers, and the links between them. Generators (fattreegenerator.h, dragonflygenerator.h,
// torusgenerator.h) build one; the canvas can build or edit one by hand; fabricanalysis.h
// analyses any of them with the same code.
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cp::model {

enum class FabricVertexRole : std::uint8_t {
    Endpoint, ///< a GPU or NIC that sends and receives but never forwards
    RoutingEndpoint, ///< a chip with an integrated router (torus, TPU ICI): sends and forwards
    ScaleUpSwitch, ///< NVSwitch or PCIe switch inside a node
    Switch, ///< leaf, spine, core switch or Dragonfly router
};

enum class LinkMedium : std::uint8_t { Copper, Optical, Internal };

/** What a link is for; it decides the cable medium and how links are counted in the output. */
enum class LinkClass : std::uint8_t {
    ScaleUp, ///< GPU to NVSwitch, inside a node
    Access, ///< endpoint to its first switch
    Fabric, ///< switch to switch: leaf-spine, spine-core, Dragonfly local, torus neighbour
    Global, ///< Dragonfly global link between groups
};

/** Parameters no fabric can be built from; the message says which and why. */
class FabricParameterError : public std::invalid_argument
{
public:
    using std::invalid_argument::invalid_argument;
};

/** Link rates and media a generator gives the links it creates. */
struct FabricLinkRates
{
    double accessBytesPerSecond = 50e9; ///< endpoint NIC, per direction (400 Gb/s)
    double fabricBytesPerSecond = 50e9; ///< switch port, per direction
    double scaleUpBytesPerSecond = 450e9; ///< per GPU into NVSwitch, per direction (H100)
    double linkLatencySeconds = 5e-9; ///< cable flight time, about 1 m of fibre per 5 ns
    /** Endpoint cables: optical in SuperPOD-style designs, copper for ToR racks and RJ45. */
    LinkMedium accessMedium = LinkMedium::Optical;
};

struct FabricVertex
{
    FabricVertexRole role = FabricVertexRole::Endpoint;
    /** 0 for endpoints, 1 leaf / router, 2 spine, 3 core; scale-up switches are 0 too. */
    int tier = 0;
    /** Pod, scalable unit or Dragonfly group; -1 where it has none (core switches). */
    int group = -1;
    std::string label;

    bool isEndpoint() const
    {
        return role == FabricVertexRole::Endpoint || role == FabricVertexRole::RoutingEndpoint;
    }
    bool forwards() const { return role != FabricVertexRole::Endpoint; }
};

struct FabricLink
{
    LinkClass linkClass = LinkClass::Fabric;
    LinkMedium medium = LinkMedium::Optical;
    double bytesPerSecond = 0; ///< per direction
    double latencySeconds = 0;
    std::size_t id = 0; ///< index in the order links were added (set by FabricGraph::addLink)
};

/**
 * The most endpoints (chips, for a torus) a generated fabric may have, checked before anything is
 * allocated. Measured on the 2-core development machine (docs/reliability.md): 524,288 endpoints
 * take 1.6 s and 0.55 GB as a torus, 7.9 s and 0.55 GB as a Dragonfly, 8.9 s and 0.59 GB as a
 * three-tier fat tree, generated and analysed; the old limit of 16,777,216 ran a 4096x4096 torus
 * for 54 s and 9 GB into bad_alloc. Twice as many (a 1024x1024 torus) already took 9.3 s.
 */
inline constexpr long long maxFabricEndpoints = 1 << 19;

/**
 * An undirected multigraph (parallel links between two switches are separate edges, as they
 * are separate cables). Vertex and edge descriptors are indices because the storage is vecS;
 * the edge list is a vector too (links are never removed: a failure marks them dead), which
 * saves a node allocation per cable and walks the edges in order.
 */
using FabricGraphStorage
    = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, FabricVertex, FabricLink,
                            boost::no_property, boost::vecS>;
using FabricVertexId = FabricGraphStorage::vertex_descriptor;

/**
 * Owns the storage on the heap. adjacency_list cannot move (its out-edges point at its own edge
 * vector, so it declares a copy and no move, and its swap copies): a FabricGraph returned by
 * value where the compiler did not elide it was copied whole, doubling the peak memory and the
 * time of a 65,536-endpoint fabric. The owner moves the pointer instead; a copy is deep.
 */
class FabricGraphStorageOwner
{
public:
    FabricGraphStorageOwner()
        : m_storage(std::make_unique<FabricGraphStorage>())
    { }
    FabricGraphStorageOwner(const FabricGraphStorageOwner &other)
        : m_storage(std::make_unique<FabricGraphStorage>(*other.m_storage))
    { }
    FabricGraphStorageOwner &operator=(const FabricGraphStorageOwner &other)
    {
        if (this != &other)
            m_storage = std::make_unique<FabricGraphStorage>(*other.m_storage);
        return *this;
    }
    /** The moved-from owner keeps an empty graph, so it stays usable. */
    FabricGraphStorageOwner(FabricGraphStorageOwner &&other)
        : m_storage(std::exchange(other.m_storage, std::make_unique<FabricGraphStorage>()))
    { }
    FabricGraphStorageOwner &operator=(FabricGraphStorageOwner &&other)
    {
        if (this != &other)
            m_storage = std::exchange(other.m_storage, std::make_unique<FabricGraphStorage>());
        return *this;
    }
    FabricGraphStorage &operator*() { return *m_storage; }
    const FabricGraphStorage &operator*() const { return *m_storage; }

private:
    std::unique_ptr<FabricGraphStorage> m_storage;
};
using FabricEdge = FabricGraphStorage::edge_descriptor;

class FabricGraph
{
public:
    explicit FabricGraph(std::string topologyName = "custom");

    /** Room for this many vertices and links, so a generator that knows its counts builds
     * without regrowing the storage. */
    void reserve(std::size_t vertices, std::size_t links);
    /** `expectedLinks`: room for that many links at the vertex, so wiring a switch does not
     * regrow its link list port by port. */
    FabricVertexId addVertex(FabricVertex vertex, std::size_t expectedLinks = 0);
    void addLink(FabricVertexId a, FabricVertexId b, const FabricLink &link);

    const FabricGraphStorage &storage() const { return *m_graph; }
    std::size_t vertexCount() const { return boost::num_vertices(*m_graph); }
    std::size_t linkCount() const { return boost::num_edges(*m_graph); }
    const FabricVertex &vertex(FabricVertexId v) const { return (*m_graph)[v]; }
    /** The two vertices of the link with this id, in the order addLink was given them. Links
     * are never removed and the edge list is a vector, so a link's id is its index there. */
    std::pair<FabricVertexId, FabricVertexId> linkEnds(std::size_t linkId) const
    {
        const auto &edge = (*m_graph).m_edges[linkId];
        return {edge.m_source, edge.m_target};
    }
    /** Endpoints in the order they were added (rank order for generated fabrics). */
    const std::vector<FabricVertexId> &endpoints() const { return m_endpoints; }

    const std::string &topologyName() const { return m_topologyName; }
    /** A line a user can read: "3-tier fat-tree, k = 64, 1:1". */
    std::string description;

    /**
     * Generators know the fabric's symmetry: every endpoint is equivalent (under an automorphism
     * of the graph) to one of these, so shortest-path statistics from them alone are exact. Empty
     * for hand-made or partly filled fabrics, where the analysis samples instead and says so.
     */
    std::vector<FabricVertexId> symmetryRepresentatives;
    /**
     * For each endpoint (by position in endpoints()), the half of the generator's natural
     * bisection it falls in (0 or 1): half the pods, half the groups, half of the longest
     * torus dimension. Empty when the graph has no natural halving; the analysis then splits the
     * endpoint list in the middle.
     */
    std::vector<std::uint8_t> naturalHalf;
    /** Switch radix the generator was given (0 for a torus or a hand-made fabric). */
    int radix = 0;
    /** A full leaf's ports down and up as a fat-tree generator built them (0 otherwise): the
     * generator takes the split of the radix at most as oversubscribed as asked that needs the
     * fewest switches, so 4:1 on radix 64 builds 49:15 (3.27:1). */
    int leafDownPorts = 0;
    int leafUpPorts = 0;
    /**
     * Planes that are copies of each other, rank r of every node on plane r (a multi-plane
     * rail fabric): the rings of one rank measure all of them exactly. 1: one fabric.
     */
    int identicalPlanes = 1;
    /**
     * Rails that can be swapped: in a rail fabric whose spines are shared and whose pods hold
     * whole scalable units, exchanging rails r and r' in every unit (the leaves, and GPUs r and r'
     * in every node) maps the fabric onto itself. Rank r's rings then load rail r's leaves as rank
     * 0's load rail 0's, and every link between two switches above the leaves carries each rank's
     * load alike. 1: no such symmetry.
     */
    int interchangeableRails = 1;

private:
    std::string m_topologyName;
    FabricGraphStorageOwner m_graph;
    std::vector<FabricVertexId> m_endpoints;
};

std::string linkMediumName(LinkMedium medium);
/** A fat-tree's switch tier as people name it: 1 "leaf", 2 "spine", 3 "core", 4 "super-spine";
 * "tier N" past that, empty for endpoints (tier 0). */
std::string fabricTierName(int tier);
std::string linkClassName(LinkClass linkClass);

} // namespace cp::model
