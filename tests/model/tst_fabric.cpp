// SPDX-License-Identifier: GPL-3.0-or-later
// The fabric engine against closed-form results: Al-Fares et al. 2008 (k-ary fat-tree), the DGX
// SuperPOD reference architectures (DGX SuperPOD H100 RA, Table 4, and B200 RA,
// https://docs.nvidia.com/dgx-superpod/), Kim et al. 2008 (Dragonfly), Dally and Towles (k-ary
// n-cube). Expected values are worked out in the comments.
#include "model/fabric/dragonflygenerator.h"
#include "model/fabric/fabricanalysis.h"
#include "model/fabric/fabriccollective.h"
#include "model/fabric/fabricdesign.h"
#include "model/fabric/fabricscaleout.h"
#include "model/fabric/fattreegenerator.h"
#include "model/fabric/torusgenerator.h"
#include "testsupport.h"

#include <QTest>

#include <limits>
#include <set>

using namespace cp::model;

namespace {
using cp::test::closeRelative;
constexpr double B = 50e9; // 400 Gb/s per direction, the generators' default link

/** A cluster whose nodes give each GPU its own 400 Gb/s NIC (90% achievable) on a fat-tree. */
struct FatTreeClusterOptions
{
    int nodes = 1;
    int gpusPerNode = 8;
    double oversubscription = 1.0;
    int switchPorts = 64;
    bool railOptimised = false;
    bool multiPlane = false;
};

ClusterDescription fatTreeCluster(const FatTreeClusterOptions &options)
{
    ClusterDescription cluster;
    cluster.gpusPerNode = options.gpusPerNode;
    cluster.nicsPerNode = options.gpusPerNode;
    cluster.gpus = options.nodes * options.gpusPerNode;
    cluster.nicBytesPerSecond = B;
    cluster.nicAchievableFraction = 0.9;
    cluster.oversubscription = options.oversubscription;
    cluster.switchPorts = options.switchPorts;
    cluster.railOptimised = options.railOptimised;
    cluster.multiPlane = options.multiPlane;
    return cluster;
}

FabricMetrics analyse(const FabricGraph &graph, const FabricFailures &failures = {})
{
    FabricHardware hardware;
    hardware.switchWatts = 750;
    hardware.switchPriceUsd = 30000;
    hardware.transceiverWatts = 9;
    hardware.transceiverPriceUsd = 800;
    return analyseFabric(graph, hardware, failures);
}

FabricGraph fatTree(int k, int tiers, double leafOversubscription = 1.0, int endpoints = 0)
{
    FatTreeParameters p;
    p.radix = k;
    p.tiers = tiers;
    p.endpoints = endpoints;
    p.leafOversubscription = leafOversubscription;
    return generateFatTree(p);
}

using RingTable = std::vector<std::pair<int, double>>;

/**
 * `cluster`'s ring rates measured on `graph` as it is (rank 0's rings where the symmetry allows)
 * and with `symmetry` (FabricGraph::identicalPlanes or interchangeableRails) set to 1 for the
 * second measurement, so every rank's rings are routed.
 */
std::pair<RingTable, RingTable> rankZeroAndEveryRank(FabricGraph &graph,
                                                     const ClusterDescription &cluster,
                                                     NodePlacement placement,
                                                     int FabricGraph::*symmetry)
{
    ClusterDescription oneRank = cluster, everyRank = cluster;
    measureScaleOutOnGraph(oneRank, graph, placement);
    const int kept = graph.*symmetry;
    graph.*symmetry = 1;
    measureScaleOutOnGraph(everyRank, graph, placement);
    graph.*symmetry = kept;
    return {oneRank.fabricRingBytesPerSecond, everyRank.fabricRingBytesPerSecond};
}

/** Whether two ring tables have the same sizes and rates equal to rounding. */
bool sameRates(const RingTable &a, const RingTable &b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].first != b[i].first || !closeRelative(a[i].second, b[i].second))
            return false;
    return true;
}

/** The reason `generate` refuses its parameters, or "accepted". */
template<typename Generate> std::string messageOf(Generate generate)
{
    try {
        generate();
    } catch (const FabricParameterError &error) {
        return std::string(error.what());
    }
    return std::string("accepted");
}

} // namespace

class TestFabric : public QObject
{
    Q_OBJECT

private slots:
    void graphMovesWithoutCopyingAndCopiesDeeply()
    {
        // A k = 4 two-tier fat-tree: 8 hosts on 4 leaves (2 down, 2 up each) and 2 spines, so
        // 8 access links and 4 x 2 = 8 uplinks, 16 links on 14 vertices.
        FabricGraph original = fatTree(4, 2);
        QCOMPARE(original.vertexCount(), std::size_t(14));
        QCOMPARE(original.linkCount(), std::size_t(16));
        const FabricGraphStorage *storage = &original.storage();
        FabricGraph moved = std::move(original);
        // The links moved, not copied: the same storage now belongs to `moved`.
        QCOMPARE(&moved.storage(), storage);
        QCOMPARE(moved.linkCount(), std::size_t(16));
        // The moved-from graph is empty and still usable.
        QCOMPARE(original.vertexCount(), std::size_t(0)); // NOLINT(bugprone-use-after-move)
        const FabricVertexId a = original.addVertex(FabricVertex {});
        const FabricVertexId b = original.addVertex(FabricVertex {});
        FabricLink cable;
        cable.bytesPerSecond = 50e9;
        original.addLink(a, b, cable);
        QCOMPARE(original.linkCount(), std::size_t(1));
        // A copy is deep: its own storage with the same links, whose out-edges are its own.
        const FabricGraph copy = moved;
        QVERIFY(&copy.storage() != &moved.storage());
        QCOMPARE(copy.linkCount(), std::size_t(16));
        const auto &g = copy.storage();
        std::size_t arcs = 0;
        for (FabricVertexId v = 0; v < copy.vertexCount(); ++v)
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
                arcs += g[*it].id < copy.linkCount() ? 1 : 0;
        QCOMPARE(arcs, std::size_t(32));
    }

    void kAryFatTreeMatchesClosedForm_data()
    {
        QTest::addColumn<int>("k");
        QTest::newRow("k=4") << 4;
        QTest::newRow("k=8") << 8;
        QTest::newRow("k=16") << 16;
    }

    void kAryFatTreeMatchesClosedForm()
    {
        QFETCH(int, k);
        const FabricMetrics m = analyse(fatTree(k, 3));
        const int hosts = k * k * k / 4;
        QCOMPARE(m.endpoints, hosts);
        QCOMPARE(m.switches, 5 * k * k / 4);
        QCOMPARE(m.switchesPerTier.at(1), k * k / 2);
        QCOMPARE(m.switchesPerTier.at(2), k * k / 2);
        QCOMPARE(m.switchesPerTier.at(3), k * k / 4);
        // Host links, edge-aggregation links and aggregation-core links: k^3/4 each.
        QCOMPARE(m.links, 3 * hosts);
        QCOMPARE(m.diameter, 6);
        QCOMPARE(m.switchDiameter, 4);
        QVERIFY(m.pathStatisticsExact);
        QVERIFY(m.connected);
        // From one host: k/2 - 1 hosts 2 links away, k^2/4 - k/2 in the pod 4 away, the rest 6.
        const double sameLeaf = k / 2 - 1;
        const double samePod = k * k / 4.0 - k / 2.0;
        const double otherPods = hosts - k * k / 4.0;
        QVERIFY(closeRelative(m.averageHops,
                              (2 * sameLeaf + 4 * samePod + 6 * otherPods) / (hosts - 1)));
        // Shortest paths: 1 under a leaf, k/2 aggregation switches in a pod, (k/2)^2 cores.
        QVERIFY(closeRelative(m.meanShortestPaths,
                              (sameLeaf + samePod * k / 2 + otherPods * k * k / 4) / (hosts - 1)));
        // Full bisection N B / 2 at 1:1.
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, hosts * B / 2));
        QVERIFY(closeRelative(m.bisectionRatio, 1.0));
        QVERIFY(closeRelative(m.injectionBytesPerSecond, B));
        // Every cable optical: two transceivers each; power and cost add up per part.
        QCOMPARE(m.transceivers, 2 * m.links);
        QVERIFY(closeRelative(m.powerWatts(), m.switches * 750.0 + m.transceivers * 9.0));
        QVERIFY(closeRelative(m.costUsd(), m.switches * 30000.0 + m.transceivers * 800.0));
    }

    void k64ThreeTierIsTheLargestThreeTierFabric()
    {
        // k = 64: k^3/4 = 65,536 hosts and 5k^2/4 = 5,120 switches (Al-Fares et al., "A Scalable,
        // Commodity Data Center Network Architecture", SIGCOMM 2008, section 3).
        const FabricGraph graph = fatTree(64, 3);
        QCOMPARE(graph.endpoints().size(), std::size_t(65536));
        FatTreeParameters tooMany;
        tooMany.radix = 64;
        tooMany.tiers = 3;
        tooMany.endpoints = 65537;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateFatTree(tooMany));
    }

    void kAryFourTierFatTreeMatchesClosedForm_data()
    {
        QTest::addColumn<int>("k");
        QTest::newRow("k=4") << 4;
        QTest::newRow("k=8") << 8;
    }

    void kAryFourTierFatTreeMatchesClosedForm()
    {
        // A 4-level k-ary fat-tree of radix-k switches (Petrini and Vanneschi, "k-ary n-trees",
        // IPPS 1997, with radix 2 x (k/2)): 2 (k/2)^4 hosts; 2 (k/2)^3 switches on each of the
        // three lower tiers and (k/2)^3 super-spines; host links and the links between tiers,
        // 2 (k/2)^4 each. k = 8: 512 hosts, 128 + 128 + 128 + 64 = 448 switches, 2,048 links.
        QFETCH(int, k);
        const int half = k / 2;
        const int hosts = 2 * half * half * half * half;
        const FabricMetrics m = analyse(fatTree(k, 4));
        QCOMPARE(m.endpoints, hosts);
        QCOMPARE(m.switchesPerTier.at(1), 2 * half * half * half);
        QCOMPARE(m.switchesPerTier.at(2), 2 * half * half * half);
        QCOMPARE(m.switchesPerTier.at(3), 2 * half * half * half);
        QCOMPARE(m.switchesPerTier.at(4), half * half * half);
        QCOMPARE(m.links, 4 * hosts);
        // Up four links and down four: hosts in different blocks are 8 links apart.
        QCOMPARE(m.diameter, 8);
        QCOMPARE(m.switchDiameter, 6);
        QVERIFY(m.pathStatisticsExact);
        QVERIFY(m.connected);
        // From one host: k/2 - 1 under its leaf (2 links), (k/2)^2 - k/2 in its pod (4), (k/2)^3
        // - (k/2)^2 in its block (6), the rest 8; shortest paths 1, k/2, (k/2)^2 and (k/2)^3.
        const double sameLeaf = half - 1;
        const double samePod = half * half - half;
        const double sameBlock = half * half * half - half * half;
        const double otherBlocks = hosts - half * half * half;
        QVERIFY(closeRelative(m.averageHops,
                              (2 * sameLeaf + 4 * samePod + 6 * sameBlock + 8 * otherBlocks)
                                  / (hosts - 1)));
        QVERIFY(closeRelative(
            m.meanShortestPaths,
            (sameLeaf + samePod * half + sameBlock * half * half + otherBlocks * half * half * half)
                / (hosts - 1)));
        // Non-blocking: full bisection N B / 2.
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, hosts * B / 2));
    }

    void radix64ReachesPastThreeTiersWithAFourth()
    {
        // Three tiers of radix 64 stop at 65,536 hosts (k^3/4); 131,072 take a fourth tier,
        // chosen when the tiers are left open: 4,096 leaves of 32 hosts in 128 pods of 32 leaves
        // (32 spines each), 4 blocks of 32 pods (32 x 32 = 1,024 cores each, half their ports
        // up), and 1,024 super-spine groups of 2 (4 blocks x 32 up ports over 64 down ports).
        FatTreeParameters p;
        p.radix = 64;
        p.endpoints = 131072;
        const FabricHardwareCount count = fabricHardwareCount(p);
        QCOMPARE(count.switches, 4096LL + 4096LL + 4096LL + 2048LL);
        // Optical: every host cable and 3 x 131,072 between the tiers.
        QCOMPARE(count.opticalLinks, 4 * 131072LL);
        // Four tiers of radix 64 join 2 x 32^4 = 2,097,152 hosts, past the 524,288 the
        // program builds; the refusal names the limit.
        FatTreeParameters tooMany;
        tooMany.radix = 64;
        tooMany.tiers = 4;
        QVERIFY(messageOf([&] { generateFatTree(tooMany); }).find("at most 524288")
                != std::string::npos);
        // Past four tiers: the reason names a larger radix, not a fifth tier.
        FatTreeParameters small;
        small.radix = 4;
        small.endpoints = 33; // 2 x 2^4 = 32 hosts at most
        QCOMPARE(messageOf([&] { fabricHardwareCount(small); }),
                 std::string("4 tiers of radix-4 switches join at most 16 leaves (32 endpoints); "
                             "17 leaves are needed: use a larger radix"));
        FatTreeParameters five;
        five.radix = 8;
        five.tiers = 5;
        QCOMPARE(messageOf([&] { generateFatTree(five); }),
                 std::string("tiers must be 1, 2, 3 or 4, not 5"));
        // A rail fabric of one tier is its rail leaves with nothing joining them: refused by
        // the generator itself, for the plan and `fabric` alike (the latter read "tiers must be
        // 1, 2, 3 or 4, not 1").
        RailFatTreeParameters oneTier;
        oneTier.tiers = 1;
        const std::string railMessage
            = "a rail-optimised fat-tree has a leaf per rail and spines to join them: 2 to 4 "
              "tiers (or the fewest that hold the GPUs), not 1";
        QCOMPARE(messageOf([&] { generateRailFatTree(oneTier); }), railMessage);
        QCOMPARE(messageOf([&] { fabricHardwareCount(oneTier); }), railMessage);
    }

    void sizeLimitIsCheckedBeforeAllocating()
    {
        // 524,288 = 2^19 endpoints at most (fabricgraph.h): each refusal below is immediate.
        TorusParameters torus; // 1024 x 1024 = 1,048,576 chips
        torus.dims = {1024, 1024};
        QCOMPARE(messageOf([&] { generateTorus(torus); }),
                 std::string("at most 524288 chips in a torus (a larger one takes over 10 s to "
                             "build and analyse)"));
        FatTreeParameters fat; // radix 256, three tiers: 256^3 / 4 = 4,194,304 hosts by default
        fat.radix = 256;
        fat.tiers = 3;
        QCOMPARE(messageOf([&] { generateFatTree(fat); }),
                 std::string("at most 524288 endpoints (a larger fat tree takes over 10 s to "
                             "build and analyse), not 4194304"));
        RailFatTreeParameters rail; // 65,537 eight-GPU servers: 524,296 GPUs
        rail.nodes = 65537;
        QCOMPARE(messageOf([&] { generateRailFatTree(rail); }),
                 std::string("at most 524288 GPUs on a rail fat tree (a larger one takes over 10 "
                             "s to build and analyse), not 524296"));
        // p = h = 20, a = 40: a h + 1 = 801 groups of a p = 800 endpoints, 640,800.
        DragonflyParameters dragonfly;
        dragonfly.p = 20;
        QCOMPARE(messageOf([&] { generateDragonfly(dragonfly); }),
                 std::string("at most 524288 endpoints (a larger Dragonfly takes over 10 s to "
                             "build and analyse), not 640800"));
    }

    void twoTierLeafSpine()
    {
        // k^2/2 = 2,048 endpoints, 64 leaves and 32 spines at k = 64.
        const FabricMetrics m = analyse(fatTree(64, 2));
        QCOMPARE(m.endpoints, 2048);
        QCOMPARE(m.switchesPerTier.at(1), 64);
        QCOMPARE(m.switchesPerTier.at(2), 32);
        QCOMPARE(m.diameter, 4);
        QVERIFY(closeRelative(m.bisectionRatio, 1.0));
        // Fewest tiers chosen automatically: 2,049 endpoints need a third tier.
        FatTreeParameters p;
        p.radix = 64;
        p.endpoints = 2049;
        QCOMPARE(analyse(generateFatTree(p)).switchesPerTier.count(3), std::size_t(1));
        p.tiers = 2;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateFatTree(p));
    }

    void endpointsThatFitOneSwitchGetOne()
    {
        // 32 endpoints on radix 48: by default one switch, 32 cables, every pair two links apart,
        // full bisection (the switch is non-blocking).
        FatTreeParameters p;
        p.radix = 48;
        p.endpoints = 32;
        const FabricMetrics m = analyse(generateFatTree(p));
        QCOMPARE(m.switches, 1);
        QCOMPARE(m.switchesPerTier.at(1), 1);
        QCOMPARE(m.links, 32);
        QCOMPARE(m.diameter, 2);
        QVERIFY(closeRelative(m.bisectionRatio, 1.0));
        // Asked for 2 tiers, the same endpoints get them: 24 down per leaf, 2 leaves, 1 spine.
        p.tiers = 2;
        const FabricMetrics two = analyse(generateFatTree(p));
        QCOMPARE(two.switchesPerTier.at(1), 2);
        QCOMPARE(two.switchesPerTier.at(2), 1);
        // One tier that cannot hold them says so.
        p.tiers = 1;
        p.endpoints = 49;
        try {
            generateFatTree(p);
            QFAIL("49 endpoints on one 48-port switch");
        } catch (const FabricParameterError &error) {
            QVERIFY2(std::string(error.what()).find("holds at most 48 endpoints")
                         != std::string::npos,
                     error.what());
        }
    }

    void storageSharingTheFabricGetsLeafPorts()
    {
        // 128 endpoints and 8 storage ports on radix-64 switches, 2 tiers at 1:1: 32 down ports
        // a leaf, so ceil(136 / 32) = 5 leaves (4 without the storage); their 5 x 32 = 160
        // uplinks need 3 spines of 64 ports, and the spine count divides the leaf's 32 up ports,
        // so 4 spines (2 without). Only the 128 endpoints are in the graph: the fifth leaf has
        // none, its 32 down ports free for the storage.
        FatTreeParameters p;
        p.radix = 64;
        p.tiers = 2;
        p.endpoints = 128;
        QCOMPARE(fabricHardwareCount(p).switches, 4LL + 2LL);
        p.storagePorts = 8;
        const FabricGraph graph = generateFatTree(p);
        const FabricMetrics m = analyse(graph);
        QCOMPARE(m.endpoints, 128);
        QCOMPARE(m.switchesPerTier.at(1), 5);
        QCOMPARE(m.switchesPerTier.at(2), 4);
        QCOMPARE(fabricHardwareCount(p).switches, 9LL);
        int leavesWithoutEndpoints = 0;
        const auto &g = graph.storage();
        for (FabricVertexId v = 0; v < graph.vertexCount(); ++v) {
            if (g[v].role != FabricVertexRole::Switch || g[v].tier != 1)
                continue;
            bool hasEndpoint = false;
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it)
                hasEndpoint
                    = hasEndpoint || g[boost::target(*it, g)].role == FabricVertexRole::Endpoint;
            leavesWithoutEndpoints += hasEndpoint ? 0 : 1;
        }
        QCOMPARE(leavesWithoutEndpoints, 1);
        // One switch while the endpoints and the storage fit its 48 ports, two tiers beyond.
        FatTreeParameters small;
        small.radix = 48;
        small.endpoints = 40;
        small.storagePorts = 8;
        QCOMPARE(fabricHardwareCount(small).switches, 1LL);
        small.storagePorts = 9;
        QVERIFY(fabricHardwareCount(small).switches > 1);
        small.tiers = 1;
        QVERIFY(messageOf([&] { generateFatTree(small); }).find("9 of them the storage's")
                != std::string::npos);
        // A rail fabric of 128 DGX in 4 units of 32: 32 rail leaves and, for 32 storage ports, a
        // storage leaf of its own (32 down ports, as a unit's leaf); 33 x 32 = 1,056 uplinks need
        // 16.5 spines, and the count divides 32: 32 spines (16 without the storage).
        RailFatTreeParameters rail;
        rail.nodes = 128;
        QCOMPARE(fabricHardwareCount(rail).switches, 32LL + 16LL);
        rail.storagePorts = 32;
        const FabricGraph railGraph = generateRailFatTree(rail);
        const FabricMetrics railMetrics = analyse(railGraph);
        QCOMPARE(railMetrics.switchesPerTier.at(1), 33);
        QCOMPARE(railMetrics.switchesPerTier.at(2), 32);
        QCOMPARE(railMetrics.endpoints, 1024);
        QCOMPARE(fabricHardwareCount(rail).switches, 65LL);
        QVERIFY(railGraph.description.find("1 storage leaf for 32 ports") != std::string::npos);
        // Multi-plane rails share no leaf to put storage on: the ports are not sized there.
        rail.multiPlane = true;
        RailFatTreeParameters planes = rail;
        planes.storagePorts = 0;
        QCOMPARE(fabricHardwareCount(rail).switches, fabricHardwareCount(planes).switches);
        // The layout's count and the graph agree with storage ports too.
        for (const long long storage : {1LL, 31LL, 33LL, 700LL})
            for (const int tiers : {0, 2, 3}) {
                FatTreeParameters withStorage;
                withStorage.radix = 16;
                withStorage.tiers = tiers;
                withStorage.endpoints = 100;
                withStorage.storagePorts = storage;
                std::optional<FabricGraph> built;
                try {
                    built = generateFatTree(withStorage);
                } catch (const FabricParameterError &) {
                    QVERIFY_THROWS_EXCEPTION(FabricParameterError,
                                             fabricHardwareCount(withStorage));
                    continue;
                }
                QCOMPARE(fabricHardwareCount(withStorage).switches,
                         hardwareCountOf(*built).switches);
                QCOMPARE(static_cast<long long>(built->endpoints().size()), 100LL);
            }
        p.storagePorts = -1;
        QVERIFY(messageOf([&] { generateFatTree(p); }).find("storage ports must be between")
                != std::string::npos);
    }

    void oversubscriptionHalvesBisection()
    {
        // Radix 12, 2 tiers. 1:1: 6 down / 6 up per leaf, 72 hosts, full bisection.
        const FabricMetrics full = analyse(fatTree(12, 2, 1.0));
        QCOMPARE(full.endpoints, 72);
        QVERIFY(closeRelative(full.bisectionRatio, 1.0));
        // 2:1: 8 down / 4 up, 96 hosts; each half (6 leaves) has 24 uplinks for 48 hosts.
        const FabricMetrics half = analyse(fatTree(12, 2, 2.0));
        QCOMPARE(half.endpoints, 96);
        QVERIFY(closeRelative(half.bisectionBytesPerSecond, 24 * B));
        QVERIFY(closeRelative(half.bisectionRatio, 0.5));
        // 2:1 at the spines of a 3-tier tree: each pod (8 leaves x 6 hosts) has 6 spines x 4
        // core links = 24 for 48 hosts.
        FatTreeParameters p;
        p.radix = 12;
        p.tiers = 3;
        p.spineOversubscription = 2.0;
        const FabricMetrics spine = analyse(generateFatTree(p));
        QCOMPARE(spine.endpoints, 12 * 8 * 6);
        QVERIFY(closeRelative(spine.bisectionRatio, 0.5));
    }

    void spinesAreNeverMoreOversubscribedThanAsked()
    {
        // Radix 64, three tiers, spines at 2:1: 64 / 3 = 21.3 up ports. 21 up would leave 43
        // down, 2.05:1, more than asked; 22 up, 42 down, is 1.91:1. Leaves at 1:1 (32 + 32), so a
        // pod is 42 leaves of 32 hosts under 32 spines of 22 core links: 704 links for 1,344
        // hosts, a bisection of 704 / 1,344 = 0.524 (it was 21 / 43 = 0.488 below the 0.5
        // asked for), and 64 pods hold 64 x 42 x 32 = 86,016 hosts.
        FatTreeParameters p;
        p.radix = 64;
        p.tiers = 3;
        p.spineOversubscription = 2.0;
        QCOMPARE(upPortsForOversubscription(64, 2.0), 22);
        const FabricMetrics spine = analyse(generateFatTree(p));
        QCOMPARE(spine.endpoints, 86016);
        QVERIFY2(closeRelative(spine.bisectionRatio, 704.0 / 1344.0),
                 QByteArray::number(spine.bisectionRatio).constData());
        // A ratio the radix divides exactly keeps its split: 3:1 on radix 64 is 16 up, 48 down.
        QCOMPARE(upPortsForOversubscription(64, 3.0), 16);
        QCOMPARE(upPortsForOversubscription(64, 1.0), 32);
    }

    void oversubscribedSpinesNeedFewerSwitches()
    {
        // 4,096 endpoints on radix-32 switches in three tiers, leaves 1:1 (16 down, 16 up):
        // 256 leaves. Spines at most 1.5:1 may take 13 to 16 up ports; a pod holds as many
        // leaves as a spine has down ports, spines per pod are the smallest divisor of the
        // leaves' 16 up ports that takes them; a last pod that is not full takes the fewest
        // spines (a divisor of 16 whose share of spine indices, 16 / spines, divides the spine's
        // up ports) its leaves' uplinks need; cores per spine index are the smallest divisor of
        // the spine's up ports that takes the group's links:
        //   13 up (19:13): 13 full pods and one of 9 leaves, which needs ceil(9 x 16 / 19) = 8
        //     spines, but 16 / 8 = 2 does not divide 13: 16; 14 x 16 = 224 spines; a group's
        //     links 14 x 13 = 182 need 6 cores, 13 (a divisor of 13): 208; 688 switches;
        //   14 up (18:14): 14 full pods and one of 4 leaves: ceil(4 x 16 / 18) = 4 spines, but
        //     16 / 4 = 4 does not divide 14; 8 do (2 spine indices each): 14 x 16 + 8 = 232; a
        //     group's links 14 x 14 + 14 / 2 = 203 need 7 cores (busiest 28 + 1 = 29 of 32
        //     ports): 16 x 7 = 112; 600 switches;
        //   15 up (17:15): 15 full pods and one of 1 leaf, whose spines must be 16 (16 / d
        //     divides 15 only at d = 16): 256 spines, 240 links a group, 15 cores: 752;
        //   16 up (16:16, non-blocking): 256 spines, 16 x 8 = 128 cores: 640.
        // The fewest up ports, 13, were taken: 688 switches, more than non-blocking's 640; then
        // 608, when the last pod took 16 spines for its 4 leaves.
        FatTreeParameters p;
        p.radix = 32;
        p.tiers = 3;
        p.endpoints = 4096;
        p.spineOversubscription = 1.5;
        const FabricMetrics m = countFabric(generateFatTree(p), {});
        QCOMPARE(m.switches, 600);
        QCOMPARE(m.switchesPerTier.at(2), 232);
        QCOMPARE(m.switchesPerTier.at(3), 112);
        // The count agrees with the layout's, as the estimate's bill uses it.
        QCOMPARE(fabricHardwareCount(p).switches, 600LL);
    }

    void partialPodsAndEmptyCoresAreNotBought()
    {
        // 2,080 endpoints on radix 64 at 1:1 (32 down, 32 up): 65 leaves, three tiers, pods of 32
        // leaves under 32 spines: 32, 32 and 1. The last pod's leaf needs ceil(32 / 32) = 1
        // spine (its 32 up ports spread over all 32 core groups, one link each); a core group
        // takes 2 x 32 + 1 = 65 links, 2 cores of 64 ports (smallest divisor of 32 >= 65 / 64):
        // 64 cores. 65 + 65 + 64 = 194 switches, where the last pod's 32 spines made 225; cables
        // 2,080 + 65 x 32 + 65 x 32 = 6,240 (7,232).
        FatTreeParameters p;
        p.radix = 64;
        p.endpoints = 2080;
        const FabricGraph graph = generateFatTree(p);
        const FabricMetrics m = analyse(graph);
        QCOMPARE(m.switchesPerTier.at(1), 65);
        QCOMPARE(m.switchesPerTier.at(2), 65);
        QCOMPARE(m.switchesPerTier.at(3), 64);
        QCOMPARE(m.links, 6240);
        QCOMPARE(fabricHardwareCount(p).switches, 194LL);
        // Still non-blocking: every endpoint reaches every other, and the cut between the
        // halves carries what they inject.
        QVERIFY(m.connected);
        QVERIFY2(m.bisectionRatio > 0.999, std::to_string(m.bisectionRatio).c_str());
        // 3,072 endpoints at a 3:1 spine ratio: 96 leaves (32 down, 32 up), spines of 16 up and
        // 48 down, pods of 48 leaves under 32 spines: 2 pods, 64 spines; a spine index's core
        // group takes 2 x 16 = 32 links, half a core: one core serves two indices, 64 links,
        // 16 cores (there were 32, each with 32 of its 64 ports used).
        FatTreeParameters oversubscribed;
        oversubscribed.radix = 64;
        oversubscribed.endpoints = 3072;
        oversubscribed.spineOversubscription = 3;
        const FabricMetrics o = analyse(generateFatTree(oversubscribed));
        QCOMPARE(o.switchesPerTier.at(1), 96);
        QCOMPARE(o.switchesPerTier.at(2), 64);
        QCOMPARE(o.switchesPerTier.at(3), 16);
        QCOMPARE(fabricHardwareCount(oversubscribed).switches, 176LL);
        QVERIFY(o.connected);
    }

    void oversubscribedLeavesNeedFewerSwitches()
    {
        // 1,024 endpoints on radix-64 switches. Non-blocking: 32 down and 32 up, 32 leaves and
        // 16 spines taking two links from each, 48 switches. Every spine takes the same links
        // from every leaf, so the spines are a divisor of a leaf's up ports.
        const FabricMetrics full = analyse(fatTree(64, 2, 1.0, 1024));
        QCOMPARE(full.switches, 48);
        // 1.5:1. floor(64 / 2.5) = 25 up is 39:25, 1.56:1, past the ratio, and 25 spines for
        // 27 leaves (52 switches, more than non-blocking). 26 up (38:26, 1.46:1): 27 leaves,
        // 27 x 26 / 64 = 10.97 spines at least, the divisor 13, two links from each: 40.
        const FabricMetrics moderate = analyse(fatTree(64, 2, 1.5, 1024));
        QCOMPARE(moderate.switchesPerTier.at(1), 27);
        QCOMPARE(moderate.switchesPerTier.at(2), 13);
        // 2:1. 21 up (43:21) is past it; 22 up (42:22, 1.91:1): 25 leaves, at least 8.6
        // spines, the divisor 11: 36 switches.
        const FabricMetrics twoToOne = analyse(fatTree(64, 2, 2.0, 1024));
        QCOMPARE(twoToOne.switches, 36);
        QVERIFY(twoToOne.bisectionRatio <= 0.5 * 1.1 && twoToOne.bisectionRatio >= 0.5);
    }

    void concurrentRingsFeelOversubscription()
    {
        // Rank rings across leaves (local rank r of every leaf): 8 flows leave each leaf over 4
        // uplinks at 2:1, so every flow gets B / 2. A ring of neighbours stays under its leaf.
        const FabricGraph graph = fatTree(12, 2, 2.0);
        const RingRate across = concurrentRingRate(graph, rankRings(graph, 8, 12), 100e-9);
        QVERIFY(closeRelative(across.bytesPerSecondPerFlow, B / 2));
        QCOMPARE(across.maxHops, 4);
        QCOMPARE(across.flows, 96);
        const RingRate along = concurrentRingRate(graph, rankRings(graph, 1, 96), 100e-9);
        QVERIFY(closeRelative(along.bytesPerSecondPerFlow, B));
        // Non-blocking: the same rank rings run at the full link rate.
        const FabricGraph nonBlocking = fatTree(12, 2, 1.0);
        QVERIFY(closeRelative(concurrentRingRate(nonBlocking, rankRings(nonBlocking, 6, 12), 100e-9)
                                  .bytesPerSecondPerFlow,
                              B));
    }

    void railFatTreeMatchesSuperPodTables_data()
    {
        QTest::addColumn<int>("nodes");
        QTest::addColumn<int>("leaves");
        QTest::addColumn<int>("spines");
        QTest::addColumn<int>("cores");
        // H100 RA table 4 (31/63/95/127 nodes: one SU slot goes to UFM) and B200 RA rows.
        QTest::newRow("1 SU") << 31 << 8 << 4 << 0;
        QTest::newRow("3 SU") << 95 << 24 << 16 << 0;
        QTest::newRow("4 SU") << 127 << 32 << 16 << 0;
        QTest::newRow("8 SU") << 256 << 64 << 32 << 0;
        QTest::newRow("16 SU") << 512 << 128 << 128 << 64;
        QTest::newRow("32 SU") << 1024 << 256 << 256 << 128;
    }

    void railFatTreeMatchesSuperPodTables()
    {
        QFETCH(int, nodes);
        QFETCH(int, leaves);
        QFETCH(int, spines);
        QFETCH(int, cores);
        RailFatTreeParameters p;
        p.nodes = nodes;
        const FabricMetrics m = analyse(generateRailFatTree(p));
        QCOMPARE(m.endpoints, nodes * 8);
        QCOMPARE(m.scaleUpSwitches, nodes);
        QCOMPARE(m.switchesPerTier.at(1), leaves);
        QCOMPARE(m.switchesPerTier.at(2), spines);
        QCOMPARE(m.switchesPerTier.count(3) ? m.switchesPerTier.at(3) : 0, cores);
        // Node-leaf cables = GPUs; leaf-spine (and spine-core) cables = 32 per leaf.
        QCOMPARE(m.linksPerClass.at("access"), nodes * 8);
        QCOMPARE(m.linksPerClass.at("fabric"), leaves * 32 * (cores > 0 ? 2 : 1));
    }

    void bisectionCutsAtALeafsEdge()
    {
        // 128 DGX on an 8:1 rail fabric of 64-port leaves in scalable units of 48 nodes: a rail
        // leaf has 48 nodes' GPUs below it and 6 uplinks. Cut at a unit's edge (48 | 80, the
        // edge nearest half), the first unit's leaves carry 8 x 6 links against its 48 x 8
        // GPUs' injection: 0.125. The cut at node 64 split the second unit, whose leaves
        // switched the traffic between its two sides without the uplinks: 0.344.
        RailFatTreeParameters p;
        p.nodes = 128;
        p.nodesPerScalableUnit = 48;
        p.leafOversubscription = 8.0;
        const FabricMetrics tapered = analyse(generateRailFatTree(p));
        QVERIFY2(closeRelative(tapered.bisectionRatio, 0.125),
                 qPrintable(QString::number(tapered.bisectionRatio)));
        // A plain fat-tree of 1,024 endpoints at 63:1 (one uplink a leaf, 63 down): 17 leaves,
        // the cut after 8 (504 | 520) crosses 8 uplinks for 504 endpoints: 1/63 = 0.0159; the
        // cut at endpoint 512 went through the ninth leaf and read 0.031.
        FatTreeParameters tree;
        tree.endpoints = 1024;
        tree.leafOversubscription = 63.0;
        const FabricMetrics thin = analyse(generateFatTree(tree));
        QVERIFY2(closeRelative(thin.bisectionRatio, 1.0 / 63.0),
                 qPrintable(QString::number(thin.bisectionRatio)));
    }

    void railTrafficIsOneSwitchHop()
    {
        RailFatTreeParameters p;
        p.nodes = 64;
        const FabricGraph graph = generateRailFatTree(p);
        const auto gpu = [&](const char *label) {
            return findVertex(graph, label);
        };
        // Same rail in one SU: GPU - leaf - GPU. Another rail: up to a spine and down.
        QCOMPARE(concurrentRingRate(graph, {{gpu("gpu-n0-0"), gpu("gpu-n1-0")}}, 0).maxHops, 2);
        QCOMPARE(concurrentRingRate(graph, {{gpu("gpu-n0-0"), gpu("gpu-n1-3")}}, 0).maxHops, 4);
        // GPUs of one node meet at the NVSwitch.
        QCOMPARE(concurrentRingRate(graph, {{gpu("gpu-n0-0"), gpu("gpu-n0-5")}}, 0).maxHops, 2);
        // Data-parallel rings per rail across both SUs run at the full NIC rate.
        const RingRate ring = concurrentRingRate(graph, rankRings(graph, 8, 64), 130e-9);
        QVERIFY(closeRelative(ring.bytesPerSecondPerFlow, B));
        QCOMPARE(ring.maxHops, 4);
        const FabricMetrics m = analyse(graph);
        QVERIFY(closeRelative(m.bisectionRatio, 1.0));
        QVERIFY(closeRelative(m.injectionBytesPerSecond, B)); // NVLink is not scale-out injection
    }

    void dragonflyMatchesKimEtAl()
    {
        // p = 4, a = 8, h = 4: g = a h + 1 = 33 groups, N = 1,056, radix 15 (BookSim2 test size).
        DragonflyParameters p;
        p.radix = 15;
        const FabricGraph graph = generateDragonfly(p);
        const FabricMetrics m = analyse(graph);
        QCOMPARE(m.endpoints, 1056);
        QCOMPARE(m.switches, 33 * 8);
        QCOMPARE(m.linksPerClass.at("global"), 33 * 32 / 2); // one per group pair
        QCOMPARE(m.linksPerClass.at("fabric"), 33 * 8 * 7 / 2); // all-to-all in each group
        QCOMPARE(m.linksPerClass.at("access"), 1056);
        // Minimal routing: local, global, local.
        QCOMPARE(m.switchDiameter, 3);
        QCOMPARE(m.diameter, 5);
        QVERIFY(m.pathStatisticsExact);
        // 16 groups against 17: 16 x 17 global links cross (about g^2/4); 512 endpoints inject.
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, 16 * 17 * B));
        QVERIFY(closeRelative(m.bisectionRatio, 16 * 17 / 512.0));
        // Local links copper, global optical.
        QCOMPARE(m.opticalCables, 528 + 1056);
        QCOMPARE(m.copperCables, 33 * 28);
    }

    void derivedDragonflyIsTheSmallestThatHoldsTheEndpoints()
    {
        // 1,024 endpoints: the balanced design a = 2p = 2h holds at most a*p*(a*h + 1) =
        // 2p^2(2p^2 + 1) endpoints: 342 for p = 3, 1,056 for p = 4. Without a switch named, p =
        // 4, a = 8, h = 4: routers of 4 + 7 + 4 = 15 ports, 1,024 / 32 = 32 groups, 256 routers.
        // On 64-port switches the design with the fewest of them: p = 16, 64 routers (tested in
        // dragonflyParametersAreChecked).
        DragonflyParameters p;
        p.endpoints = 1024;
        const FabricGraph graph = generateDragonfly(p);
        QCOMPARE(graph.endpoints().size(), std::size_t(1024));
        int routers = 0;
        for (FabricVertexId v = 0; v < graph.vertexCount(); ++v)
            routers += graph.vertex(v).role == FabricVertexRole::Switch;
        QCOMPARE(routers, 256);
        // A radix of 11 caps p at (11 + 1) / 4 = 3: a = 6, h = 3 hold at most 18 * 19 = 342
        // endpoints in 19 groups, too few for 1,024.
        p.radix = 11;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateDragonfly(p));
    }

    void torusIsSizedFromTheChips_data()
    {
        QTest::addColumn<long long>("chips");
        QTest::addColumn<QString>("dims");
        // The smallest product first, then the most cube-like: 4^3 = 64; 1,024 = 8x8x16 (ratio
        // 2) beats 4x16x16 (ratio 4); 10^3 = 1,000; 5 chips get the smallest torus, 2x2x2.
        QTest::newRow("64") << 64LL << QStringLiteral("4x4x4");
        QTest::newRow("1024") << 1024LL << QStringLiteral("8x8x16");
        QTest::newRow("1000") << 1000LL << QStringLiteral("10x10x10");
        QTest::newRow("5") << 5LL << QStringLiteral("2x2x2");
    }

    void torusIsSizedFromTheChips()
    {
        QFETCH(long long, chips);
        QFETCH(QString, dims);
        QCOMPARE(QString::fromStdString(torusDimsText(torusDimsFor(chips))), dims);
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, torusDimsFor(maxFabricEndpoints + 1));
    }

    void dragonflyParametersAreChecked()
    {
        DragonflyParameters p;
        p.p = 4;
        p.a = 8;
        p.h = 4;
        p.groups = 34; // > a h + 1
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateDragonfly(p));
        p.groups = 0;
        p.radix = 14; // p + a - 1 + h = 15 ports
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateDragonfly(p));
        DragonflyParameters none;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateDragonfly(none));
        // Values whose products wrapped an int or a long long were refused with a negative a, or
        // passed the size check: refused before any arithmetic.
        const auto messageOf = [](const DragonflyParameters &parameters) {
            try {
                generateDragonfly(parameters);
            } catch (const FabricParameterError &error) {
                return std::string(error.what());
            }
            return std::string("accepted");
        };
        DragonflyParameters wide;
        wide.p = 1 << 30;
        QCOMPARE(messageOf(wide),
                 std::string("p, a and h must be at most 4096 (p = 1073741824, a = 0, h = 0)"));
        DragonflyParameters global;
        global.a = 4096;
        global.p = 4096;
        global.h = 268435456;
        QCOMPARE(
            messageOf(global),
            std::string("p, a and h must be at most 4096 (p = 4096, a = 4096, h = 268435456)"));
        // From a target size: the smallest balanced design, then the fewest groups.
        DragonflyParameters target;
        target.endpoints = 1000;
        const FabricMetrics m = analyse(generateDragonfly(target));
        // p = 4: 32 endpoints per group, 32 groups, 1,024 terminal ports, of which the 1,000
        // endpoints take the first (the last group's last 24 stay free: they were built, cabled
        // and priced as endpoints).
        QCOMPARE(m.endpoints, 1000);
        QCOMPARE(m.switches, 256);
        QCOMPARE(m.switchDiameter, 3);
        // The same target on 64-port switches: the balanced design of radix 4p - 1 <= 64 with
        // the fewest of them. p = 4: 32 groups of 8 routers, 256 (15 of each switch's 64 ports
        // used, the design it chose before); p = 8: 8 groups of 16, 128; p = 16: 1,024 / 512 =
        // 2 groups of 32, 64 switches of 63 ports.
        target.radix = 64;
        const FabricMetrics onSwitches = analyse(generateDragonfly(target));
        QCOMPARE(onSwitches.switches, 64);
        QCOMPARE(onSwitches.endpoints, 1000);
        // Cables: 1,000 endpoints' (not 1,024), 2 groups x (32 x 31 / 2) = 992 local links and
        // 32 x 16 = 512 global ports a group, one link per pair of ports: 2,504.
        QCOMPARE(onSwitches.links, 2504);
        // 100 endpoints on them: p = 16 would still need 2 groups (64 routers), p = 4 needs
        // ceil(100 / 32) = 4 groups of 8 (32), p = 5 ceil(100 / 50) = 2 of 10 (20), p = 6
        // 2 of 12 (24), p = 7 2 of 14 (28): p = 5, 20 switches.
        target.endpoints = 100;
        QCOMPARE(analyse(generateDragonfly(target)).switches, 20);
    }

    void torusMatchesKAryNCube_data()
    {
        QTest::addColumn<QString>("dims");
        QTest::addColumn<int>("diameter");
        QTest::addColumn<int>("bisectionLinks");
        QTest::addColumn<double>("averageHops");
        // N = k^n; diameter n floor(k/2); bisection 2 k^(n-1) links; the mean distance over all N
        // nodes is n k / 4 for even k, so over the N - 1 others it is (n k / 4) N / (N - 1).
        QTest::newRow("4x4x4") << "4x4x4" << 6 << 32 << 3.0 * 64 / 63;
        QTest::newRow("8x8") << "8x8" << 8 << 16 << 4.0 * 64 / 63;
        QTest::newRow("16x16x16") << "16x16x16" << 24 << 512 << 12.0 * 4096 / 4095;
        // Unequal: the cut across the longest dimension (8) cuts 2 x 4 x 4 links.
        QTest::newRow("4x4x8") << "4x4x8" << 8 << 32 << (1.0 + 1.0 + 2.0) * 128 / 127;
    }

    void torusMatchesKAryNCube()
    {
        QFETCH(QString, dims);
        QFETCH(int, diameter);
        QFETCH(int, bisectionLinks);
        QFETCH(double, averageHops);
        TorusParameters p;
        p.dims = parseTorusDims(dims.toStdString());
        const FabricMetrics m = analyse(generateTorus(p));
        QCOMPARE(m.diameter, diameter);
        QCOMPARE(m.switchDiameter, diameter); // the chips are the routers
        QCOMPARE(m.switches, 0);
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, bisectionLinks * B));
        QVERIFY(closeRelative(m.averageHops, averageHops));
        QCOMPARE(m.links, m.endpoints * static_cast<int>(p.dims.size()));
    }

    void torusDegreeCountsARingOfTwoOnce()
    {
        // A 2 x 2 x 2 torus: each chip's neighbour in a ring of 2 is the same chip either way,
        // one link: 8 chips x 3 links / 2 = 12 links, degree 3 (the description said 6). A
        // 4 x 4 x 2 torus: two neighbours in each ring of 4, one in the ring of 2: degree 5,
        // 32 x 5 / 2 = 80 links.
        TorusParameters p;
        p.dims = {2, 2, 2};
        FabricGraph cube = generateTorus(p);
        QCOMPARE(analyse(cube).links, 12);
        QVERIFY2(cube.description.find("(8 chips, degree 3)") != std::string::npos,
                 cube.description.c_str());
        p.dims = {4, 4, 2};
        FabricGraph mixed = generateTorus(p);
        QCOMPARE(analyse(mixed).links, 80);
        QVERIFY2(mixed.description.find("(32 chips, degree 5)") != std::string::npos,
                 mixed.description.c_str());
    }

    void torusCubesAreCopperInsideOpticalBetween()
    {
        // 8x4x4 with 4-chip cubes: in dimension 0, two of every ring's 8 links cross a cube face.
        TorusParameters p;
        p.dims = {8, 4, 4};
        const FabricMetrics m = analyse(generateTorus(p));
        QCOMPARE(m.opticalCables, 16 * 2);
        QCOMPARE(m.copperCables, 128 * 3 - 32);
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, parseTorusDims("4x4x"));
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, parseTorusDims("4xfour"));
        p.dims = {4, 1};
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateTorus(p));
    }

    void failedCoreSwitchCostsAQuarterOfBisection()
    {
        // k = 4: 4 cores, each with one link to each pod; between pod halves each core carries
        // 2 B, so the bisection is 8 B and losing a core leaves 6 B. The fabric stays connected.
        const FabricGraph graph = fatTree(4, 3);
        FabricFailures failures;
        failures.vertices.push_back(findVertex(graph, "core-0"));
        const FabricMetrics m = analyse(graph, failures);
        QVERIFY(m.connected);
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, 6 * B));
        QVERIFY(closeRelative(m.bisectionRatio, 0.75));
        QVERIFY(!m.pathStatisticsExact || m.pathMethod.find("every endpoint") != std::string::npos);
        QCOMPARE(m.diameter, 6);
        // Losing a leaf cuts its two hosts off.
        FabricFailures leaf;
        leaf.vertices.push_back(findVertex(graph, "leaf-0"));
        const FabricMetrics cut = analyse(graph, leaf);
        QVERIFY(!cut.connected);
        QCOMPARE(cut.unreachableEndpoints, 2);
        // Losing one host's cable cuts that host off, and a ring through it stops.
        FabricFailures cable;
        cable.links.push_back(findLink(graph, "host-0", "leaf-0"));
        QCOMPARE(analyse(graph, cable).unreachableEndpoints, 1);
        QCOMPARE(concurrentRingRate(graph, rankRings(graph, 1, 16), 0, cable).bytesPerSecondPerFlow,
                 0.0);
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, findVertex(graph, "spine-99"));
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, findLink(graph, "host-0", "leaf-1"));
    }

    void failedSpineLinkSlowsTheRingsThatUseIt()
    {
        // k = 12, 2 tiers, 1:1: each leaf has one link to each of 6 spines. Rank rings (6 flows
        // out of every leaf, spread evenly) run at B; without leaf-0's link to spine-0 its 6
        // flows share 5 uplinks: 6/5 flows per link, so B * 5/6.
        const FabricGraph graph = fatTree(12, 2, 1.0);
        FabricFailures failures;
        failures.links.push_back(findLink(graph, "leaf-0", "spine-0"));
        const RingRate ring = concurrentRingRate(graph, rankRings(graph, 6, 12), 0, failures);
        QVERIFY(closeRelative(ring.bytesPerSecondPerFlow, B * 5 / 6));
        QVERIFY(ring.bottleneckLink.find("leaf-0") != std::string::npos);
    }

    void invalidParametersNameTheReason()
    {
        FatTreeParameters p;
        p.radix = 2;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateFatTree(p));
        p.radix = 64;
        p.leafOversubscription = 0.5;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, generateFatTree(p));
        RailFatTreeParameters rail;
        rail.nodesPerScalableUnit = 40; // 40 down + 40 up > 64 ports
        try {
            generateRailFatTree(rail);
            QFAIL("expected an error");
        } catch (const FabricParameterError &error) {
            QVERIFY(std::string(error.what()).find("radix 64") != std::string::npos);
        }
    }

    void closedFormEqualsTheGraphWithoutOversubscription()
    {
        // Where closedFormScaleOutIsExact skips the measurement, the graph must give the same:
        // every flow its whole NIC at every ring size, contiguous and scattered, on full and
        // partly built 2-, 3- and 4-tier fat-trees and rail fabrics of radix 8 (4 ports down, 4
        // up; k^3/4 = 128 endpoints in 3 tiers, k^4/8 = 512 in 4), here with 4 NICs per node.
        for (const bool rail : {false, true})
            for (const int nodes : {3, 5, 8, 12, 20, 31, 32, 40, 64, 100, 128}) {
                const ClusterDescription cluster = fatTreeCluster(
                    {.nodes = nodes, .gpusPerNode = 4, .switchPorts = 8, .railOptimised = rail});
                const FabricDesign design = fabricDesignForCluster(cluster);
                QVERIFY(closedFormScaleOutIsExact(design));
                const FabricGraph graph = generateFabric(design);
                for (const NodePlacement placement :
                     {NodePlacement::Contiguous, NodePlacement::Scattered}) {
                    ClusterDescription measured = cluster;
                    measureScaleOutOnGraph(measured, graph, placement);
                    QVERIFY(!measured.fabricRingBytesPerSecond.empty());
                    for (const auto &[ringNodes, perGpu] : measured.fabricRingBytesPerSecond)
                        QVERIFY2(closeRelative(perGpu, B),
                                 qPrintable(QStringLiteral("rail %1, %2 nodes, ring %3: %4")
                                                .arg(rail)
                                                .arg(nodes)
                                                .arg(ringNodes)
                                                .arg(perGpu / B)));
                }
            }
        // Oversubscribed fabrics, Dragonflies and tori are measured.
        FabricDesign oversubscribed;
        oversubscribed.fatTree.leafOversubscription = 2.0;
        QVERIFY(!closedFormScaleOutIsExact(oversubscribed));
        FabricDesign torus;
        torus.topology = FabricTopology::Torus;
        QVERIFY(!closedFormScaleOutIsExact(torus));
    }

    void hardwareCountedWithoutTheGraphMatchesIt()
    {
        // fabricHardwareCount (from the layout) against the generated graph's own count, over
        // one to four tiers, oversubscribed leaves and spines, partly built fabrics, copper
        // access cables and rail fabrics: the same switches and optical cables every time.
        for (const int radix : {8, 12, 64})
            for (const int tiers : {0, 1, 2, 3, 4})
                for (const double leaf : {1.0, 3.0})
                    for (const long long endpoints : {5LL, 8LL, 40LL, 100LL, 1000LL, 20000LL}) {
                        FatTreeParameters p;
                        p.radix = radix;
                        p.tiers = tiers;
                        p.leafOversubscription = leaf;
                        p.spineOversubscription = tiers >= 3 ? 2.0 : 1.0;
                        p.endpoints = static_cast<int>(endpoints);
                        p.rates.accessMedium
                            = endpoints % 2 ? LinkMedium::Copper : LinkMedium::Optical;
                        std::optional<FabricGraph> graph;
                        try {
                            graph = generateFatTree(p);
                        } catch (const FabricParameterError &) {
                            // The count refuses what the generator refuses.
                            QVERIFY_THROWS_EXCEPTION(FabricParameterError, fabricHardwareCount(p));
                            continue;
                        }
                        const FabricHardwareCount built = hardwareCountOf(*graph);
                        const FabricHardwareCount counted = fabricHardwareCount(p);
                        QCOMPARE(counted.switches, built.switches);
                        QCOMPARE(counted.opticalLinks, built.opticalLinks);
                    }
        for (const int nodes : {1, 7, 32, 33, 200})
            for (const double leaf : {1.0, 2.0}) {
                RailFatTreeParameters rail;
                rail.nodes = nodes;
                rail.nodesPerScalableUnit = leaf > 1 ? 40 : 32;
                rail.leafOversubscription = leaf;
                const FabricHardwareCount built = hardwareCountOf(generateRailFatTree(rail));
                const FabricHardwareCount counted = fabricHardwareCount(rail);
                QCOMPARE(counted.switches, built.switches);
                QCOMPARE(counted.opticalLinks, built.opticalLinks);
            }
        // By hand: one SU of 32 DGX on a radix-64 rail fabric is 8 leaves and 4 spines (SuperPOD
        // reference architecture, Table 4), 256 GPU cables and 8 x 32 leaf uplinks, all optical.
        RailFatTreeParameters su;
        const FabricHardwareCount one = fabricHardwareCount(su);
        QCOMPARE(one.switches, 12LL);
        QCOMPARE(one.opticalLinks, 256LL + 256LL);
    }

    void railLeavesTakeTheUplinksThatNeedFewestSwitches()
    {
        // 128 servers of 8 rails on radix-64 switches at 3:1 in units of 32: 32 leaves. 11 up
        // ports (ceil(32 / 3)) need 11 spines, 11 being prime (43 switches, more than 2:1's 40);
        // 12 up ports (2.67:1, within 3:1) spread over 6 spines of 64 ports (384 uplinks): 38.
        RailFatTreeParameters p;
        p.nodes = 128;
        p.nodesPerScalableUnit = 32;
        p.leafOversubscription = 3.0;
        const FabricGraph graph = generateRailFatTree(p);
        QCOMPARE(hardwareCountOf(graph).switches, 38LL);
        QCOMPARE(fabricHardwareCount(p).switches, 38LL);
        QVERIFY2(graph.description.find("leaf 2.67:1") != std::string::npos,
                 graph.description.c_str());
        // Unit size chosen as well (0): units of 48 (48 + 16 up ports at 3:1 on 64), 3 units,
        // 24 leaves of 16 uplinks, 384 over a divisor of 16 spines with room: 8, so 32
        // switches; at 4:1, 12 uplinks on 6 spines: 30. More oversubscription never costs more.
        p.nodesPerScalableUnit = 0;
        QCOMPARE(fabricHardwareCount(p).switches, 32LL);
        long long previous = std::numeric_limits<long long>::max();
        for (const double ratio : {1.0, 1.5, 2.0, 3.0, 4.0}) {
            p.leafOversubscription = ratio;
            const long long switches = fabricHardwareCount(p).switches;
            QVERIFY2(switches <= previous, qPrintable(QString::number(ratio)));
            previous = switches;
        }
        QCOMPARE(previous, 30LL);
    }

    void multiPlaneRailsShareNoSwitch()
    {
        // 16 servers of 4 GPUs on radix-8 switches, 4 servers per unit: each rail is a plane of
        // its own: 16 / 4 = 4 leaves, two tiers, smallestDivisorAtLeast(4 up ports, 4 x 4 / 8 =
        // 2) = 2 spines; 4 planes: 16 leaves + 8 spines = 24 switches, 64 GPU cables and
        // 4 x 4 x 4 = 64 leaf uplinks. No spine has leaves of two rails.
        RailFatTreeParameters p;
        p.nodes = 16;
        p.gpusPerNode = 4;
        p.nodesPerScalableUnit = 4;
        p.radix = 8;
        p.multiPlane = true;
        const FabricGraph graph = generateRailFatTree(p);
        const FabricHardwareCount count = hardwareCountOf(graph);
        QCOMPARE(count.switches, 24LL);
        QCOMPARE(count.opticalLinks, 64LL + 64LL);
        QCOMPARE(fabricHardwareCount(p).switches, count.switches);
        QCOMPARE(fabricHardwareCount(p).opticalLinks, count.opticalLinks);
        QCOMPARE(graph.identicalPlanes, 4);
        const auto &g = graph.storage();
        for (FabricVertexId v = 0; v < graph.vertexCount(); ++v) {
            if (graph.vertex(v).tier != 2)
                continue;
            std::set<std::string> rails;
            for (auto [it, end] = boost::out_edges(v, g); it != end; ++it) {
                const std::string &label = graph.vertex(boost::target(*it, g)).label;
                rails.insert(label.substr(label.find("-rail")));
            }
            QVERIFY2(rails.size() == 1, graph.vertex(v).label.c_str());
        }
        // Radix 64 reaches 8 x 65,536 = 524,288 GPUs this way, where shared spines stop at
        // 65,536: 16,384 DGX are 512 units, 512 leaves a plane, 16 pods of 32 leaves under
        // 32 spines each, 32 core groups of 8: 1,280 switches a plane, 10,240 in all.
        // DeepSeek's Multi-Plane Fat-Tree (Zhao et al., ISCA 2025, section 5): 8 two-tier planes
        // of 64-port switches, 16,384 GPUs on 768 switches: 64 leaves + 32 spines a plane.
        RailFatTreeParameters deepseek;
        deepseek.nodes = 2048;
        deepseek.multiPlane = true;
        QCOMPARE(fabricHardwareCount(deepseek).switches, 768LL);
        QCOMPARE(hardwareCountOf(generateRailFatTree(deepseek)).switches, 768LL);
        RailFatTreeParameters large;
        large.nodes = 16384;
        large.multiPlane = true;
        QCOMPARE(fabricHardwareCount(large).switches, 10240LL);
        // Shared spines: three tiers refuse it; a fourth tier of super-spines builds it from
        // 4,096 leaves, 4,096 spines, 4,096 cores (4 blocks of 32 pods) and 2,048 super-spines,
        // 14,336 switches where the planes need 10,240.
        large.multiPlane = false;
        large.tiers = 3;
        QVERIFY_THROWS_EXCEPTION(FabricParameterError, fabricHardwareCount(large));
        large.tiers = 0;
        QCOMPARE(fabricHardwareCount(large).switches, 14336LL);

        // Oversubscribed (3:1 leaves): measuring rank 0's rings alone (the planes are copies)
        // gives what every rank's rings give, at every ring size and both placements.
        const ClusterDescription cluster = fatTreeCluster({.nodes = 64,
                                                           .gpusPerNode = 4,
                                                           .oversubscription = 3.0,
                                                           .switchPorts = 8,
                                                           .railOptimised = true,
                                                           .multiPlane = true});
        FabricGraph planes = generateFabric(fabricDesignForCluster(cluster));
        QCOMPARE(planes.identicalPlanes, 4);
        for (const NodePlacement placement :
             {NodePlacement::Contiguous, NodePlacement::Scattered}) {
            const auto [oneRank, everyRank]
                = rankZeroAndEveryRank(planes, cluster, placement, &FabricGraph::identicalPlanes);
            QCOMPARE(oneRank, everyRank);
            // Contiguous rings leave each 6-server unit once (full rate); scattered ones send
            // every flow up the 2 uplinks of 6 down, so the comparison covers a measured loss.
            if (placement == NodePlacement::Scattered)
                QVERIFY(everyRank.back().second < B);
        }
    }

    void railLeavesServeAsManyNodesAsTheirPortsAllow()
    {
        // A rail leaf of d nodes at r:1 needs ceil(d / r) up ports: radix 64 at 2:1 serves 42
        // (42 + 21 = 63; 43 would need 22, 65 ports), radix 128 at 2:1 serves 85 (85 + 43),
        // radix 64 at 3:1 48 (48 + 16) and at 1:1 32 (43 and 86 made `train --rail-optimised
        // --oversubscription 2` refuse its own fabric).
        QCOMPARE(railNodesPerLeaf(64, 2.0), 42);
        QCOMPARE(railNodesPerLeaf(128, 2.0), 85);
        QCOMPARE(railNodesPerLeaf(64, 3.0), 48);
        QCOMPARE(railNodesPerLeaf(64, 1.0), 32);
        // The cluster's rail fabric takes, of the unit sizes up to that, the one needing the
        // fewest switches. 128 nodes x 8 rails at 2:1 on radix 64: units of 42 (4 units, 32
        // leaves of 21 up ports) need spines a divisor of 21 of at least 32 x 21 / 64 = 10.5,
        // 21: 53 switches, more than non-blocking's 48. Units of 32 (4 units, 32 leaves of 16
        // up) need at least 8 spines, a divisor of 16: 40 switches, the fewest (units of 40 and
        // 20 up need 10 spines, 42; of 36 and 18 up, 9 spines, 41).
        const ClusterDescription cluster = fatTreeCluster(
            {.nodes = 128, .oversubscription = 2.0, .switchPorts = 64, .railOptimised = true});
        const FabricDesign design = fabricDesignForCluster(cluster);
        QCOMPARE(design.railFatTree.nodesPerScalableUnit, 32);
        QCOMPARE(fabricHardwareCount(design.railFatTree).switches, 40LL);
        QCOMPARE(generateFabric(design).endpoints().size(), std::size_t(1024));
    }

    void interchangeableRailsAreMeasuredOnRankZero()
    {
        // A 3:1 rail fabric of radix 8 with shared spines (2 up and 6 down at a leaf): swapping
        // rails r and r' in every unit maps it onto itself, so rank 0's rings, with the links
        // above the leaves carrying 4 ranks' load, give what routing every rank's rings gives, at
        // every ring size and both placements, on two tiers (12 nodes) and three (64). The
        // scattered rings go up the oversubscribed leaves, so a measured loss is compared too.
        for (const int nodes : {12, 64}) {
            const ClusterDescription cluster = fatTreeCluster({.nodes = nodes,
                                                               .gpusPerNode = 4,
                                                               .oversubscription = 3.0,
                                                               .switchPorts = 8,
                                                               .railOptimised = true});
            FabricGraph rails = generateFabric(fabricDesignForCluster(cluster));
            QCOMPARE(rails.interchangeableRails, 4);
            QCOMPARE(rails.identicalPlanes, 1);
            for (const NodePlacement placement :
                 {NodePlacement::Contiguous, NodePlacement::Scattered}) {
                const auto [oneRank, everyRank] = rankZeroAndEveryRank(
                    rails, cluster, placement, &FabricGraph::interchangeableRails);
                QVERIFY(sameRates(oneRank, everyRank));
                if (placement == NodePlacement::Scattered)
                    QVERIFY(everyRank.back().second < 0.99 * B);
            }
        }

        // Where the links above the leaves bind: radix 12, leaves 1:1 (6 nodes a unit, 6 up),
        // spines 2:1 (8 down, 4 up), so a pod is 8 leaves, two whole units of 4 rails. Scattered
        // rings leave their pods at every step and meet the spines' 2:1, where every rank's load
        // counts.
        RailFatTreeParameters p;
        p.nodes = 96;
        p.gpusPerNode = 4;
        p.nodesPerScalableUnit = 6;
        p.radix = 12;
        p.tiers = 3;
        p.spineOversubscription = 2.0;
        FabricGraph rails = generateRailFatTree(p);
        QCOMPARE(rails.interchangeableRails, 4);
        ClusterDescription cluster;
        cluster.gpusPerNode = 4;
        cluster.nicsPerNode = 4;
        cluster.gpus = 96 * 4;
        cluster.nicBytesPerSecond = p.rates.accessBytesPerSecond;
        const auto [oneRank, everyRank] = rankZeroAndEveryRank(
            rails, cluster, NodePlacement::Scattered, &FabricGraph::interchangeableRails);
        QVERIFY(sameRates(oneRank, everyRank));
        // The rings over all 96 nodes run below the NIC rate: the spines' uplinks bind.
        QVERIFY(everyRank.back().second < 0.99 * p.rates.accessBytesPerSecond);
    }

    void estimatorsUseTheMeasuredScaleOut()
    {
        // 128 nodes x 8 NICs of 400 Gb/s on a radix-64 fat-tree at 4:1. floor(64 / 5) = 12 up
        // ports would be 52:12, 4.33:1, past the ratio asked; of the splits at most 4:1 (13 to 32
        // up), 49 down and 15 up need the fewest switches: 21 leaves and 5 spines taking 3 links
        // from each (26; 13 up ports, a prime, would need 13 spines). Contiguous rings stay under
        // their leaves; scattered ones send every flow up, so each gets 15/49 of a link.
        ClusterDescription cluster
            = fatTreeCluster({.nodes = 128, .oversubscription = 4.0, .switchPorts = 64});
        ClusterDescription scattered = cluster;
        const std::string contiguousNote = measureScaleOutOnFabric(cluster);
        QVERIFY2(contiguousNote.find("100% of the NIC rate") != std::string::npos,
                 contiguousNote.c_str());
        // The fabric's name is the one built, 49:15 = 3.27:1, not the 4:1 asked for.
        QVERIFY2(cluster.fabricName.starts_with("3.27:1 oversubscribed ")
                     && cluster.fabricName.find("4:1 at most") != std::string::npos,
                 cluster.fabricName.c_str());
        QVERIFY(closeRelative(cluster.scaleOutLink(128).busBytesPerSecond, B * 0.9));
        const std::string scatteredNote
            = measureScaleOutOnFabric(scattered, NodePlacement::Scattered);
        QVERIFY2(scatteredNote.find("31% of the NIC rate") != std::string::npos,
                 scatteredNote.c_str());
        QVERIFY(closeRelative(scattered.scaleOutLink(128).busBytesPerSecond, B * 15 / 49 * 0.9));
        // The closed form divides by the nominal ratio for any ring that leaves a leaf.
        ClusterDescription closedForm = cluster;
        closedForm.fabricRingBytesPerSecond.clear();
        closedForm.nodesPerLeaf = 6;
        QVERIFY(closeRelative(closedForm.scaleOutLink(128).busBytesPerSecond, B * 0.9 / 4));
        // A rail-optimised 1:1 fabric: rings per rail at the NIC rate.
        ClusterDescription rail = cluster;
        rail.fabricRingBytesPerSecond.clear();
        rail.oversubscription = 1.0;
        rail.railOptimised = true;
        measureScaleOutOnFabric(rail, NodePlacement::Scattered);
        QVERIFY(closeRelative(rail.scaleOutLink(128).busBytesPerSecond, B * 0.9));
    }

    void handMadeGraphIsAnalysedByTheSameCode()
    {
        // Two switches joined by two cables, two hosts on each: bisection 2 B across the pair.
        FabricGraph graph;
        FabricVertex sw;
        sw.role = FabricVertexRole::Switch;
        sw.tier = 1;
        sw.label = "a";
        const auto a = graph.addVertex(sw);
        sw.label = "b";
        const auto b = graph.addVertex(sw);
        FabricLink link;
        link.bytesPerSecond = B;
        graph.addLink(a, b, link);
        graph.addLink(a, b, link);
        for (int i = 0; i < 4; ++i) {
            FabricVertex host;
            host.label = "h" + std::to_string(i);
            graph.addLink(graph.addVertex(host), i < 2 ? a : b, link);
        }
        const FabricMetrics m = analyse(graph);
        QCOMPARE(m.endpoints, 4);
        QCOMPARE(m.diameter, 3);
        QVERIFY(closeRelative(m.averageHops, (2 + 3 + 3) / 3.0));
        QVERIFY(closeRelative(m.meanShortestPaths, (1 + 2 + 2) / 3.0)); // two parallel cables
        QVERIFY(closeRelative(m.bisectionBytesPerSecond, 2 * B));
        QVERIFY(m.pathStatisticsExact);
        QVERIFY(m.bisectionMethod.find("endpoint list") != std::string::npos);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, graph.addLink(a, a, link));
    }
};

QTEST_APPLESS_MAIN(TestFabric)
#include "tst_fabric.moc"
