package io.verso.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class PrimaryTimelineTests {

    private static final long MS = 1_000_000L;

    @Test
    void aReplicaJustBehindAPrimaryThatNeverStopsWritingLagsAboutOneCheck() {
        PrimaryTimeline timeline = new PrimaryTimeline(60_000 * MS);
        // The primary commits between every two checks; the replica always holds the previous check's latest.
        for (int check = 0; check < 1_000; check++) {
            timeline.record(check * 250 * MS, 10L * check);
        }
        long now = 999 * 250 * MS;
        assertThat(timeline.secondsBehind(10L * 998, now)).isLessThanOrEqualTo(0.25);
        assertThat(timeline.secondsBehind(10L * 999, now)).isZero();
    }

    @Test
    void aReplicaThatStoppedReplayingLagsForAsLongAsItStopped() {
        PrimaryTimeline timeline = new PrimaryTimeline(60_000 * MS);
        for (int check = 0; check <= 40; check++) {
            timeline.record(check * 250 * MS, 100L + check);
        }
        // It last held what the primary had at check 20 (5 s); the primary moved on at check 21.
        assertThat(timeline.secondsBehind(120, 40 * 250 * MS)).isCloseTo(4.75, within(1e-9));
        // Behind everything in the window: at least the window's age.
        assertThat(timeline.secondsBehind(50, 40 * 250 * MS)).isCloseTo(10.0, within(1e-9));
    }

    @Test
    void anIdlePrimaryMeansNoLagOnceReplayed() {
        PrimaryTimeline timeline = new PrimaryTimeline(1_000 * MS);
        for (int check = 0; check < 100; check++) {
            timeline.record(check * 250 * MS, 7);
        }
        assertThat(timeline.secondsBehind(7, 100 * 250 * MS)).isZero();
        assertThat(timeline.secondsBehind(6, 100 * 250 * MS)).isGreaterThanOrEqualTo(1.0);
    }
}
