// SPDX-License-Identifier: GPL-3.0-or-later
// The worker-thread runner behind the estimate, the comparison and the Fabric view.
#include "views/latestjobrunner.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using cp::views::LatestJobRunner;

class TestLatestJobRunner : public QObject
{
    Q_OBJECT

private slots:
    void onlyTheNewestRequestIsDelivered()
    {
        // Three requests while the first runs: the first is superseded, the second waits and
        // is replaced by the third, so exactly one result arrives, the third's.
        QObject owner;
        std::vector<int> delivered;
        LatestJobRunner<int> runner(&owner, [&](int value) { delivered.push_back(value); });
        std::atomic<bool> gate {false};
        runner.request([&](const std::atomic<bool> *) {
            while (!gate.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        });
        runner.request([](const std::atomic<bool> *) { return 2; });
        runner.request([](const std::atomic<bool> *) { return 3; });
        gate.store(true);
        runner.waitForIdle();
        QCOMPARE(delivered, std::vector<int> {3});
    }

    void aRequestBetweenAJobsEndAndItsSignalStillWins()
    {
        // Job 1 runs, job 2 waits. Job 1 ends, but its finished signal has not been handled
        // (no event loop ran) when job 3 is requested. Job 3 must replace job 2: the runner
        // once started job 3 at once, left job 2 waiting, and delivered job 2 last, as the
        // newest (the Fabric view showed the empty plan's drawing after a plan was opened).
        QObject owner;
        std::vector<int> delivered;
        LatestJobRunner<int> runner(&owner, [&](int value) { delivered.push_back(value); });
        std::atomic<bool> gate {false}, ended {false};
        runner.request([&](const std::atomic<bool> *) {
            while (!gate.load())
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            ended.store(true);
            return 1;
        });
        runner.request([](const std::atomic<bool> *) { return 2; });
        gate.store(true);
        while (!ended.load())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        std::this_thread::sleep_for(std::chrono::milliseconds(20)); // the future reports done
        runner.request([](const std::atomic<bool> *) { return 3; });
        QVERIFY(runner.isRunning());
        runner.waitForIdle();
        QCOMPARE(delivered, std::vector<int> {3});
        QVERIFY(!runner.isRunning());
    }

    void waitForIdleDeliversTheLastResult()
    {
        // isRunning stays true until the result is handed over, not merely until the job ends.
        QObject owner;
        int delivered = 0;
        LatestJobRunner<int> runner(&owner, [&](int value) { delivered = value; });
        runner.request([](const std::atomic<bool> *) { return 7; });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        QVERIFY(runner.isRunning());
        runner.waitForIdle();
        QCOMPARE(delivered, 7);
    }
};

QTEST_GUILESS_MAIN(TestLatestJobRunner)
#include "tst_latestjobrunner.moc"
