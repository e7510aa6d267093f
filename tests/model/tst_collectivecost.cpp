// SPDX-License-Identifier: GPL-3.0-or-later
// Expected values worked out by hand from the formulas in collectivecost.h.
#include "model/cluster/collectivecost.h"

#include <QTest>

using namespace cp::model;

class TestCollectiveCost : public QObject
{
    Q_OBJECT

private slots:
    void ringAllReduce()
    {
        // 1 GB over 8 ranks at 100 GB/s, alpha 10 us: 2*7*10us + 2*7/8 * 1e9/1e11 = 0.14 ms + 17.5
        // ms.
        const LinkLevel link {100e9, 10e-6};
        QCOMPARE(ringAllReduceSeconds(1e9, 8, link), 0.00014 + 0.0175);
        QCOMPARE(ringAllReduceSeconds(1e9, 1, link), 0.0);
        QCOMPARE(ringAllReduceSeconds(0, 8, link), 0.0);
    }

    void treeWinsForSmallMessagesAtScale()
    {
        // 1 KB over 1024 ranks: ring 2*1023*10us = 20.46 ms of latency; tree 2*10*10us = 0.2 ms.
        const LinkLevel link {25e9, 10e-6};
        const double tree = treeAllReduceSeconds(1e3, 1024, link);
        QVERIFY(qAbs(tree - (2 * 10 * 10e-6 + 2 * 1e3 / 25e9)) < 1e-12);
        QCOMPARE(allReduceSeconds(1e3, 1024, link), tree);
        // 1 GB over 4 ranks: ring moves 1.5 GB-equivalents, tree 2: ring wins.
        QCOMPARE(allReduceSeconds(1e9, 4, link), ringAllReduceSeconds(1e9, 4, link));
    }

    void reduceScatterIsHalfAnAllReduce()
    {
        const LinkLevel link {50e9, 5e-6};
        QCOMPARE(reduceScatterSeconds(4e9, 16, link) * 2, ringAllReduceSeconds(4e9, 16, link));
        QCOMPARE(allGatherSeconds(4e9, 16, link), reduceScatterSeconds(4e9, 16, link));
        // All-to-all: (n-1) alpha + (n-1)/n S/B = 15*5us + 15/16*4e9/50e9.
        QVERIFY(qAbs(allToAllSeconds(4e9, 16, link) - (15 * 5e-6 + 0.075)) < 1e-12);
        QCOMPARE(pointToPointSeconds(1e9, link), 5e-6 + 0.02);
    }

    void hierarchicalMatchesWorkedExample()
    {
        // Ring all-reduce 2(n-1)/n x S/B per level (Thakur, Rabenseifner and Gropp 2005; Patarasuk
        // and Yuan 2009): 1 GB over 16 nodes x 8 H100, B_nvl = 370 GB/s, B_nic = 48 GB/s:
        // about 4.7 ms intra + 4.9 ms inter = 9.6 ms (bandwidth terms only).
        const LinkLevel nvlink {370e9, 0.0};
        const LinkLevel nic {48e9, 0.0};
        const double seconds = hierarchicalAllReduceSeconds(1e9, 8, 16, nvlink, nic);
        const double intra = 2 * 7.0 / 8.0 * 1e9 / 370e9; // 4.73 ms
        const double inter = 2 * 15.0 / 16.0 * (1e9 / 8) / 48e9; // 4.88 ms
        QVERIFY(qAbs(seconds - (intra + inter)) < 1e-12);
        QVERIFY(qAbs(seconds - 0.0096) < 0.0001);
        QCOMPARE(hierarchicalAllReduceSeconds(1e9, 8, 1, nvlink, nic),
                 allReduceSeconds(1e9, 8, nvlink));
    }

    void campusAddsTheShardAcrossBuildings()
    {
        // 8 GB over 2 buildings of 4 nodes x 8 GPUs, bandwidth terms only (latencies 0):
        // inside a building the hierarchical all-reduce, 2 x 7/8 x 8 GB / 400 GB/s = 35 ms over
        // NVLink plus a ring of 4 nodes on 1 GB per rail, 2 x 3/4 x 1 GB / 50 GB/s = 30 ms; then
        // each of the 32 ranks all-reduces its 8 GB / 32 = 250 MB shard with its counterpart in
        // the other building, 2 x 1/2 x 0.25 GB / 5 GB/s = 50 ms (a ring of two; the tree's
        // 2 x 0.25 / 5 = 100 ms is slower). 115 ms in all.
        const LinkLevel nvlink {400e9, 0.0};
        const LinkLevel nic {50e9, 0.0};
        const LinkLevel interconnect {5e9, 0.0};
        const double seconds = campusAllReduceSeconds(8e9, 8, 4, 2, nvlink, nic, interconnect);
        QVERIFY(qAbs(seconds - 0.115) < 1e-12);
        // One building: exactly the hierarchical all-reduce.
        QCOMPARE(campusAllReduceSeconds(8e9, 8, 4, 1, nvlink, nic, interconnect),
                 hierarchicalAllReduceSeconds(8e9, 8, 4, nvlink, nic));
    }

    void allToAllAcrossNodesSendsOnlyTheRemoteShareThroughTheNic()
    {
        // Expert-parallel all-to-all over 2 nodes x 8 ranks, 134 MB per rank (4,096 tokens x
        // top-8 x 2,048 x 2 bytes), NVLink 370 GB/s and a NIC share of 48 GB/s per rank, no step
        // latency: 7/16 of it to the 7 peers in the node, 0.159 ms over NVLink; 8/16 to the 8
        // peers in the other node over the NIC, 67.1 MB / 48 GB/s = 1.398 ms; the
        // slower, 1.40 ms: half the 2.62 ms of a flat all-to-all with 15/16 over the NIC.
        const LinkLevel nvlink {370e9, 0.0};
        const LinkLevel nic {48e9, 0.0};
        const double bytes = 4096.0 * 8 * 2048 * 2;
        const double seconds = hierarchicalAllToAllSeconds(bytes, 8, 2, nvlink, nic);
        const double intra = 7.0 / 16.0 * bytes / 370e9; // 0.159 ms
        const double inter = 8.0 / 16.0 * bytes / 48e9; // 1.398 ms
        QVERIFY(intra < inter);
        QVERIFY(qAbs(seconds - inter) < 1e-12);
        QVERIFY(qAbs(seconds - 1.398e-3) < 1e-6);
        QVERIFY(qAbs(allToAllSeconds(bytes, 16, nic) - 2.621e-3) < 1e-6);
        // One node: the flat all-to-all over NVLink.
        QCOMPARE(hierarchicalAllToAllSeconds(bytes, 8, 1, nvlink, nic),
                 allToAllSeconds(bytes, 8, nvlink));
    }

    void everyCallPaysItsLaunchOnce()
    {
        // NCCL's tuning model adds a base latency per call (ring LL 6.6 us). A 16 KiB all-reduce
        // over 4 ranks at 100 GB/s with 1 us steps: ring = 6.6 + 2*3*1 + 2*3/4*16384/1e11 s =
        // 12.6 us + 0.24576 us; tree = 6.6 + 2*2*1 + 2*16384/1e11 = 10.6 us + 0.32768 us. The
        // tree wins: 10.92768 us.
        const LinkLevel link {100e9, 1e-6, 6.6e-6};
        QVERIFY(qAbs(ringAllReduceSeconds(16384, 4, link) - 12.84576e-6) < 1e-12);
        QVERIFY(qAbs(allReduceSeconds(16384, 4, link) - 10.92768e-6) < 1e-12);
        // Reduce-scatter 6.6 + 3*1 + 3/4*16384/1e11 = 9.6 us + 0.12288 us; send 6.6 + 1 + 0.16384.
        QVERIFY(qAbs(reduceScatterSeconds(16384, 4, link) - 9.72288e-6) < 1e-12);
        QVERIFY(qAbs(pointToPointSeconds(16384, link) - 7.76384e-6) < 1e-12);
        // Nothing to send costs nothing, launch included.
        QCOMPARE(allReduceSeconds(0, 4, link), 0.0);
        QCOMPARE(allReduceSeconds(16384, 1, link), 0.0);
        // A hierarchical all-reduce is one NCCL call: the 8.4 us launch once, not three times.
        // 8 MB over 2 nodes x 8 GPUs, NVLink 400 GB/s with 3.4 us steps, NIC 50 GB/s with
        // 10 us steps: reduce-scatter 7*3.4 + 7/8*8e6/4e11 = 23.8 + 17.5 us; inter all-reduce of
        // 1 MB over 2 ranks (ring 2*10 + 2*1/2*1e6/5e10 = 40 us beats tree 2*1*10 + 2*1e6/5e10 =
        // 60 us), all-gather as the reduce-scatter: 8.4 + 41.3 + 40 + 41.3 = 131 us.
        const LinkLevel nvlink {400e9, 3.4e-6, 8.4e-6};
        const LinkLevel nic {50e9, 10e-6, 8.4e-6};
        QVERIFY(qAbs(hierarchicalAllReduceSeconds(8e6, 8, 2, nvlink, nic) - 131e-6) < 1e-11);
    }
};

QTEST_APPLESS_MAIN(TestCollectiveCost)
#include "tst_collectivecost.moc"
