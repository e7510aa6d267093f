// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "model/fabric/fabricgraph.h"

namespace cp::model {

/**
 * A folded-Clos (fat-tree) of radix-k switches with 2, 3 or 4 tiers (Leiserson 1985; Al-Fares,
 * Loukissas and Vahdat, SIGCOMM 2008). Each tier's oversubscription is its down:up port ratio.
 * The fourth tier (super-spines) joins blocks of pods, each block a 3-tier fabric whose cores
 * give half their ports to it: 2 (k/2)^4 endpoints at 1:1, 2,097,152 at k = 64 (an n-tier
 * k-ary fat-tree: Petrini and Vanneschi, "k-ary n-trees: High Performance Networks for
 * Massively Parallel Architectures", IPPS 1997).
 */
struct FatTreeParameters
{
    int radix = 64;
    /** 0: the largest fabric the radix and tiers allow (k^2/2 for 2 tiers, k^3/4 for 3 at 1:1,
     * k^4/8 for 4, which is past maxFabricEndpoints from k = 46). */
    int endpoints = 0;
    /** 0: the fewest tiers that hold `endpoints`; 1 is a single switch (no uplinks). */
    int tiers = 0;
    double leafOversubscription = 1.0; ///< leaf down:up ports
    double spineOversubscription = 1.0; ///< spine down:up ports, 3 and 4 tiers
    /** Leaf down ports kept free for storage systems that share the fabric (servers without a
     * storage network of their own): the leaves (and the tiers above them) are sized for the
     * endpoints and these ports, after the endpoints' leaves, but only the endpoints are built
     * into the graph; the data hall cables the storage to the free ports. */
    long long storagePorts = 0;
    FabricLinkRates rates;
};

/**
 * Rail-optimised fat-tree as in the DGX SuperPOD reference architectures: nodes are grouped in
 * scalable units (SUs); NIC (rail) i of every node in an SU goes to the SU's leaf i, so
 * same-rank GPUs meet one switch hop apart, and leaves join spines (and cores above 8 SUs of
 * 32 nodes at k = 64) as in a fat-tree. GPUs inside a node share an NVSwitch.
 */
struct RailFatTreeParameters
{
    int nodes = 32;
    int gpusPerNode = 8; ///< one NIC (rail) per GPU
    /** 0: the size that needs the fewest switches (railNodesPerLeafWithFewestSwitches). */
    int nodesPerScalableUnit = 32;
    int radix = 64;
    int tiers = 0; ///< 0: the fewest that hold the nodes
    double leafOversubscription = 1.0;
    double spineOversubscription = 1.0;
    /**
     * Multi-plane: every rail is a fat-tree of its own (a plane of the nodes' NIC r, up to
     * `tiers` tiers), no spine or core joins two rails. A plane holds as many nodes as a
     * shared-spine fabric holds GPUs, so radix-64 switches reach 524,288 GPUs on 8 planes
     * where shared spines stop at 65,536; traffic between rails crosses NVLink inside the
     * node (NCCL's PXN), as in a rail-optimised fabric. The Multi-Plane Fat-Tree of Zhao et
     * al., "Insights into DeepSeek-V3: Scaling Challenges and Reflections on Hardware for AI
     * Architectures", ISCA 2025 (arXiv:2505.09343), section 5.
     */
    bool multiPlane = false;
    /** Storage ports that share the fabric (FatTreeParameters::storagePorts): on leaves of their
     * own, as many as a unit's leaf takes nodes of them, joined to the spines like every leaf.
     * A multi-plane fabric has no leaf shared by the planes to put them on: ignored there. */
    long long storagePorts = 0;
    FabricLinkRates rates;
};

/** The fabric's switches and optical cables (each needs two transceivers), as the generated
 * graph has them (FabricGraph::hardwareCount), counted without building it. */
struct FabricHardwareCount
{
    long long switches = 0;
    long long opticalLinks = 0;
    /** The hardware of `copies` identical fabrics (a campus's buildings). */
    FabricHardwareCount times(long long copies) const
    {
        return {switches * copies, opticalLinks * copies};
    }
};

/** Builds the fat-tree; throws FabricParameterError naming the parameter at fault. */
FabricGraph generateFatTree(const FatTreeParameters &parameters);
FabricGraph generateRailFatTree(const RailFatTreeParameters &parameters);

/** What generateFatTree / generateRailFatTree would build, counted from their layouts (same
 * checks, same errors). */
FabricHardwareCount fabricHardwareCount(const FatTreeParameters &parameters);
FabricHardwareCount fabricHardwareCount(const RailFatTreeParameters &parameters);

/** Up ports a switch of `radix` gets at `oversubscription` down:up: the fewest whose ratio is
 * at most the one asked for, ceil(k / (r + 1)). */
int upPortsForOversubscription(int radix, double oversubscription);

/**
 * The most nodes one rail leaf of `radix` ports serves at `oversubscription`: the largest d with
 * d + ceil(d / r) <= k, the leaf's up ports as generateRailFatTree counts them (radix 64 at 2:1:
 * 42 down and 21 up; 64 - floor(64 / 3) = 43 would need 22 up, 65 ports).
 */
int railNodesPerLeaf(int radix, double oversubscription);

/**
 * Nodes per scalable unit (per rail leaf) for `p`'s nodes at its oversubscription: of the unit
 * sizes a leaf serves (up to railNodesPerLeaf), the one that needs the fewest switches, the
 * largest among equals. The spines are a divisor of a leaf's up ports: 128 nodes of 8 rails at
 * 2:1 on radix 64 took 42 nodes a unit, 21 up ports and 21 spines (53 switches, more than
 * non-blocking's 48), where 32 a unit with 16 up need 8 (40).
 */
int railNodesPerLeafWithFewestSwitches(const RailFatTreeParameters &p);

} // namespace cp::model
