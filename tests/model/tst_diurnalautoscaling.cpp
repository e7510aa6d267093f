// SPDX-License-Identifier: GPL-3.0-or-later
// Hourly autoscaling against static provisioning for the peak, with hand-computed replica counts.
#include "model/catalog/catalogdatabase.h"
#include "model/core/inputerror.h"
#include "model/inference/diurnalautoscaling.h"
#include "model/inference/inferenceestimator.h"
#include "model/inference/inferencesetup.h"
#include "testsupport.h"

#include <QTest>

#include <cmath>

using namespace cp::model;

using cp::test::shippedCatalog;

class TestDiurnalAutoscaling : public QObject
{
    Q_OBJECT

private:
    Catalog m_catalog = shippedCatalog();
    InferenceSetup m_setup = inferenceSetupFromCatalog(
        m_catalog, {.gpuId = "h100-sxm5-80gb", .facilityId = "dc-industry-average"});

    InferenceJob job() const
    {
        InferenceJob j;
        j.model = m_catalog.llm("llama-3-8b");
        j.weightPrecision = Precision::FP16;
        j.inputTokens = 1024;
        j.outputTokens = 256;
        return j;
    }

private slots:
    void profileFromRatesIsScaledToThePeak()
    {
        std::vector<double> rates(24, 10.0);
        rates[13] = 40.0;
        const DiurnalProfile p = diurnalProfileFromHourlyRates(rates, "test");
        QCOMPARE(p.hourlyFraction[13], 1.0);
        QCOMPARE(p.hourlyFraction[0], 0.25);
    }

    void badProfilesSayWhy()
    {
        try {
            diurnalProfileFromHourlyRates(std::vector<double>(23, 1.0), "plan.json");
            QFAIL("23 hours accepted");
        } catch (const InputError &e) {
            QCOMPARE(e.reason(), std::string("a day has 24 hourly rates, found 23"));
        }
        std::vector<double> rates(24, 1.0);
        rates[3] = -1;
        try {
            diurnalProfileFromHourlyRates(rates, "plan.json");
            QFAIL("a negative rate accepted");
        } catch (const InputError &e) {
            QCOMPARE(e.pointer(), std::string("/3"));
        }
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 diurnalProfileFromHourlyRates(std::vector<double>(24, 0.0), "x"));
        QVERIFY_THROWS_EXCEPTION(InputError, cosineDiurnalProfile(1.5));
    }

    void cosineProfileByHand()
    {
        // f(h) = t + (1 - t)(1 + cos(2π(h - 14)/24))/2 with t = 0.2.
        const DiurnalProfile p = cosineDiurnalProfile(0.2, 14);
        QCOMPARE(p.hourlyFraction[14], 1.0);
        QVERIFY(std::abs(p.hourlyFraction[2] - 0.2) < 1e-12); // cos(-π) = -1
        QVERIFY(std::abs(p.hourlyFraction[8] - 0.6) < 1e-12); // cos(-π/2) = 0
        QVERIFY(std::abs(p.hourlyFraction[20] - 0.6) < 1e-12); // cos(π/2) = 0
    }

    void twelveBusyHoursAndTwelveQuiet()
    {
        // Without latency targets a replica serves up to mu requests/s at its largest batch, and
        // an hour at rate r needs ceil(r / mu) replicas (M/M/B stable: r / (n·mu) < 1).
        const InferenceJob base = job();
        const InferenceEstimator single(base, m_setup.hardware, m_setup.cost);
        const double mu = single.estimateAtBatch(single.maxBatch()).requestsPerSecondPerReplica;
        QVERIFY(mu > 0);
        InferenceJob peak = base;
        peak.ratePerSecond = 10.5 * mu; // 11 replicas at the peak
        std::vector<double> rates(24, 1.0);
        std::fill(rates.begin() + 8, rates.begin() + 20, 4.0); // 08:00-20:00 at 4x the night
        const AutoscalingEstimate a = estimateDiurnalAutoscaling(
            peak, m_setup.hardware, m_setup.cost, diurnalProfileFromHourlyRates(rates, "test"));
        QVERIFY2(a.feasible, a.reason.c_str());
        QCOMPARE(a.replicas[12], 11);
        QCOMPARE(a.replicas[2], 3); // 10.5 mu / 4 = 2.625 mu
        QCOMPARE(a.staticReplicas, 11);
        QCOMPARE(a.replicaHoursPerDay, 12.0 * 11 + 12.0 * 3); // 168
        QCOMPARE(a.staticReplicaHoursPerDay, 24.0 * 11); // 264
        QVERIFY(std::abs(a.savingFraction - (1 - 168.0 / 264.0)) < 1e-12); // 36.4%
        const double usdPerGpuHour = m_setup.cost.usdPerGpuHour();
        QVERIFY(std::abs(a.usdPerDay - 168 * usdPerGpuHour) < 1e-9);
        QVERIFY(std::abs(a.staticUsdPerDay - 264 * usdPerGpuHour) < 1e-9);
        const double tokens = (12 * 10.5 * mu + 12 * 2.625 * mu) * 3600 * 256;
        QVERIFY(std::abs(a.outputTokensPerDay / tokens - 1) < 1e-12);
        // The day's cost is split between prompt and output tokens, and the two prices charge
        // the whole of it, no more: output tokens x their price + input tokens (1,024 a
        // request, 4 per output token) x theirs = the day's 168 GPU-hours.
        const double inputTokens = tokens / 256 * 1024;
        QVERIFY(a.costPerMillionOutputTokensUsd > 0 && a.costPerMillionInputTokensUsd > 0);
        QVERIFY(std::abs(a.costPerMillionOutputTokensUsd * tokens / 1e6
                         + a.costPerMillionInputTokensUsd * inputTokens / 1e6 - 168 * usdPerGpuHour)
                < 1e-6);
        // A fleet kept at the peak all day pays for 264 GPU-hours instead.
        QVERIFY(a.staticUsdPerDay > a.usdPerDay);
    }

    void quietHoursKeepTheMinimum()
    {
        InferenceJob peak = job();
        const InferenceEstimator single(peak, m_setup.hardware, m_setup.cost);
        peak.ratePerSecond
            = 2.5 * single.estimateAtBatch(single.maxBatch()).requestsPerSecondPerReplica;
        std::vector<double> rates(24, 0.0);
        rates[18] = 1.0;
        const AutoscalingEstimate a = estimateDiurnalAutoscaling(
            peak, m_setup.hardware, m_setup.cost, diurnalProfileFromHourlyRates(rates, "test"), 2);
        QCOMPARE(a.replicas[18], 3);
        QCOMPARE(a.replicas[0], 2);
        QCOMPARE(a.replicaHoursPerDay, 3.0 + 23 * 2);
        QVERIFY(a.note.empty());
        // A floor of 10 above the peak's 3: the fleet never scales, 240 replica-hours against a
        // static fleet's 24 x 3 = 72, a saving of 1 - 240 / 72 = -233%. The static fleet was
        // taken as the floor's 10 and the saving read 0%.
        const AutoscalingEstimate floor = estimateDiurnalAutoscaling(
            peak, m_setup.hardware, m_setup.cost, diurnalProfileFromHourlyRates(rates, "test"), 10);
        QCOMPARE(floor.staticReplicas, 3);
        QCOMPARE(floor.replicaHoursPerDay, 240.0);
        QVERIFY(std::abs(floor.savingFraction - (1 - 240.0 / 72.0)) < 1e-12);
        QCOMPARE(floor.note,
                 std::string("the floor of 10 replicas is above the 3 the busiest hour needs: "
                             "the fleet never scales, and costs more than a static one sized for "
                             "the peak"));
    }

    void unservablePeakIsReported()
    {
        InferenceJob peak = job();
        peak.model = m_catalog.llm("llama-3-405b"); // 810 GB at FP16 on one 80 GB GPU
        peak.ratePerSecond = 1;
        const AutoscalingEstimate a = estimateDiurnalAutoscaling(
            peak, m_setup.hardware, m_setup.cost, cosineDiurnalProfile(0.3));
        QVERIFY(!a.feasible);
        QVERIFY(!a.reason.empty());
        InferenceJob noRate = job();
        QVERIFY(!estimateDiurnalAutoscaling(noRate, m_setup.hardware, m_setup.cost,
                                            cosineDiurnalProfile(0.3))
                     .feasible);
    }
};

QTEST_GUILESS_MAIN(TestDiurnalAutoscaling)
#include "tst_diurnalautoscaling.moc"
