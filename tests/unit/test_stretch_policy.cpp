// The stretch policy alone (replay/stretch_policy.hpp): which run becomes the anchor, when it is given up and how
// long the waits are, worked out by hand from the constants (heat 16, tries 16, patience 2^14 instructions, waits
// from 1,024 instructions doubling up to 2^24, sparse waits from 2^20 doubling up to 2^32).
#include <gtest/gtest.h>

#include "replay/stretch_policy.hpp"

namespace pmusim::replay {
namespace {

using P = StretchPolicy;

// Meets shape `id` at t, t + gap and t + 2 * gap, nothing repeated in between: whether the third meeting makes it a
// sparse anchor.
bool met_thrice(P& p, uint32_t id, uint64_t t, uint64_t gap) {
    p.sparse_anchor(id, t, 0, false);
    p.sparse_anchor(id, t + gap, 0, false);
    return p.sparse_anchor(id, t + 2 * gap, 0, false);
}

TEST(StretchPolicy, AShapeBecomesTheAnchorAtItsSixteenthExecution) {
    P p;
    for (int i = 1; i <= 15; ++i) EXPECT_FALSE(p.hot_anchor(4, 100)) << i;
    EXPECT_TRUE(p.hot_anchor(4, 100));
    // Another shape counts its own executions.
    EXPECT_FALSE(p.hot_anchor(5, 100));
}

// waiting(): at each unit while waiting, sparse_anchor() asked first and hot_anchor() only where it says no (a sparse
// meeting is not an execution counted towards heat 16), both on one shape's entry.
TEST(StretchPolicy, WaitingAsksForASparseAnchorFirstThenAHotOne) {
    P p;
    using W = P::Wait;
    EXPECT_EQ(p.waiting(3, 0, 0), W::none);      // heat 1
    EXPECT_EQ(p.waiting(3, 20000, 0), W::none);  // heat 2; a gap of 20,000 > 2^14
    EXPECT_EQ(p.waiting(3, 40000, 0), W::sparse);  // the same gap again: sparse (heat not counted)
    EXPECT_EQ(p.gap(3), 20000u);
    for (uint64_t i = 1; i <= 13; ++i) EXPECT_EQ(p.waiting(3, 40000 + i, 0), W::none) << i;  // heat 3 .. 15
    EXPECT_EQ(p.waiting(4, 40014, 0), W::none);  // another shape: its own count
    EXPECT_EQ(p.waiting(3, 40015, 0), W::hot);   // heat 16
    // The same answers as sparse_anchor() then hot_anchor() on a policy of their own.
    P q;
    EXPECT_FALSE(q.sparse_anchor(3, 0, 0, false));
    EXPECT_FALSE(q.hot_anchor(3, 0));
    EXPECT_FALSE(q.sparse_anchor(3, 20000, 0, false));
    EXPECT_FALSE(q.hot_anchor(3, 20000));
    EXPECT_TRUE(q.sparse_anchor(3, 40000, 0, false));
    for (uint64_t i = 1; i <= 13; ++i) {
        EXPECT_FALSE(q.sparse_anchor(3, 40000 + i, 0, false));
        EXPECT_FALSE(q.hot_anchor(3, 40000 + i)) << i;
    }
    EXPECT_FALSE(q.sparse_anchor(3, 40015, 0, false));
    EXPECT_TRUE(q.hot_anchor(3, 40015));
}

TEST(StretchPolicy, AnAnchorWhoseStretchRepeatedIsTakenAgainAtOnce) {
    P p;
    p.anchored(9, 0, 0);
    p.repeated();
    EXPECT_TRUE(p.hot_anchor(9, 0));  // its first execution since
    EXPECT_TRUE(p.hot_anchor(9, 0));
}

TEST(StretchPolicy, AnAnchorThatDifferedTwiceIsNeverTakenAgain) {
    P p;
    p.anchored(7, 0, 0);
    EXPECT_FALSE(p.differed(0));
    p.anchored(7, 0, 0);
    EXPECT_FALSE(p.differed(0));
    for (int i = 0; i < 100; ++i) EXPECT_FALSE(p.hot_anchor(7, 0));
    // Nor as a sparse anchor: met at 0, 20,000 and 40,000 instructions (gaps of 20,000 > 2^14, alike).
    EXPECT_FALSE(p.sparse_anchor(7, 0, 0, false));
    EXPECT_FALSE(p.sparse_anchor(7, 20000, 0, false));
    EXPECT_FALSE(p.sparse_anchor(7, 40000, 0, false));
    // Once only: still an anchor.
    P q;
    q.anchored(7, 0, 0);
    q.differed(0);
    for (int i = 1; i <= 15; ++i) EXPECT_FALSE(q.hot_anchor(7, 0));
    EXPECT_TRUE(q.hot_anchor(7, 0));
}

TEST(StretchPolicy, GivingUpWaitsTwiceAsLongEachTimeUpTo2To24) {
    P p;
    for (int i = 0; i < 15; ++i) EXPECT_FALSE(p.hot_anchor(1, 0));
    p.give_up(1000);  // no anchor before 1,000 + 1,024
    EXPECT_FALSE(p.hot_anchor(1, 2023));
    EXPECT_TRUE(p.hot_anchor(1, 2024));
    p.give_up(5000);  // the wait doubled: 5,000 + 2,048
    EXPECT_FALSE(p.hot_anchor(1, 7047));
    EXPECT_TRUE(p.hot_anchor(1, 7048));
    // Waits 4,096 ... 2^24 (the 15th give_up), then 2^24 again.
    for (int k = 3; k <= 16; ++k) p.give_up(0);
    const uint64_t wait = uint64_t{1} << 24;
    EXPECT_FALSE(p.hot_anchor(1, wait - 1));
    EXPECT_TRUE(p.hot_anchor(1, wait));
    // A stretch that repeated starts the waits again from 1,024.
    p.anchored(1, 0, 0);
    p.repeated();
    p.give_up(0);
    for (int i = 0; i < 15; ++i) EXPECT_FALSE(p.hot_anchor(2, 1023));
    EXPECT_FALSE(p.hot_anchor(2, 1023));  // its 16th execution, but within the wait
    EXPECT_TRUE(p.hot_anchor(2, 1024));
}

TEST(StretchPolicy, TriesAndAnchors) {
    P p;
    p.anchored(3, 0, 0);
    for (int i = 1; i <= 15; ++i) EXPECT_FALSE(p.tried()) << i;
    EXPECT_TRUE(p.tried());  // the 16th stretch tried with one anchor
    for (int i = 1; i <= 15; ++i) EXPECT_FALSE(p.next_anchor()) << i;
    EXPECT_TRUE(p.next_anchor());  // the 16th anchor since a stretch repeated
    // A sparse anchor: 2 tries.
    p.anchored(3, 20000, 0);
    EXPECT_FALSE(p.tried());
    EXPECT_TRUE(p.tried());
    // give_up() and repeated() start the count of anchors again.
    p.give_up(0);
    for (int i = 1; i <= 15; ++i) EXPECT_FALSE(p.next_anchor()) << i;
    p.repeated();
    EXPECT_FALSE(p.next_anchor());
}

TEST(StretchPolicy, ARunMetAgainAfterTheSameGapBeyondPatienceIsASparseAnchor) {
    P p;
    EXPECT_FALSE(p.sparse_anchor(3, 100, 0, false));    // first meeting
    EXPECT_FALSE(p.sparse_anchor(3, 20100, 0, false));  // a gap of 20,000, none before to match
    EXPECT_TRUE(p.sparse_anchor(3, 40100, 0, false));   // 20,000 again, > 16,384
    EXPECT_EQ(p.gap(3), 20000u);
    // Not while a sparse anchor is being recorded; another recording does not stop it.
    EXPECT_TRUE(p.sparse_anchor(3, 60100, 0, true));
    p.anchored(3, 20000, 60100);
    EXPECT_EQ(p.sparse_gap(), 20000u);
    EXPECT_FALSE(p.sparse_anchor(3, 80100, 0, true));
    // A gap that changes, or one within patience, is not.
    P q;
    q.sparse_anchor(4, 0, 0, false);
    q.sparse_anchor(4, 20000, 0, false);
    EXPECT_FALSE(q.sparse_anchor(4, 40001, 0, false));  // 20,001
    P r;
    r.sparse_anchor(4, 0, 0, false);
    r.sparse_anchor(4, 16384, 0, false);
    EXPECT_FALSE(r.sparse_anchor(4, 32768, 0, false));  // 16,384: not more than patience
}

TEST(StretchPolicy, NoSparseAnchorWhereInnerStretchesRepeatedMoreThanHalfTheGap) {
    P p;
    p.sparse_anchor(3, 0, 0, false);
    p.sparse_anchor(3, 20000, 0, false);
    EXPECT_FALSE(p.sparse_anchor(3, 40000, 10001, false));  // 10,001 of 20,000 repeated since the last meeting
    EXPECT_TRUE(p.sparse_anchor(3, 60000, 20001, false));   // 10,000: exactly half
}

TEST(StretchPolicy, ASparseAnchorGivenUpWaits2To20ThenTwiceAsLong) {
    P p;
    ASSERT_TRUE(met_thrice(p, 3, 100, 20000));
    p.anchored(3, 20000, 40100);
    p.sparse_failed(40100);  // none before 40,100 + 1,048,576 = 1,088,676
    EXPECT_EQ(p.sparse_gap(), 0u);
    // Met every 20,000 instructions: the 53rd meeting after is the first at or beyond it (52 * 20,000 < 1,048,576).
    for (int k = 1; k <= 52; ++k) EXPECT_FALSE(p.sparse_anchor(3, 40100 + 20000 * uint64_t(k), 0, false)) << k;
    EXPECT_TRUE(p.sparse_anchor(3, 40100 + 20000 * 53, 0, false));
    // The next wait is 2^21.
    p.anchored(3, 20000, 1100100);
    p.sparse_failed(1100100);
    for (int k = 1; k <= 104; ++k) EXPECT_FALSE(p.sparse_anchor(3, 1100100 + 20000 * uint64_t(k), 0, false)) << k;
    EXPECT_TRUE(p.sparse_anchor(3, 1100100 + 20000 * 105, 0, false));  // 105 * 20,000 >= 2,097,152
    // sparse_failed() of an anchor that is not a sparse one changes nothing.
    P q;
    q.anchored(1, 0, 0);
    q.sparse_failed(0);
    EXPECT_TRUE(met_thrice(q, 3, 100, 20000));
}

TEST(StretchPolicy, AGapWhoseStretchCannotBeReplayedIsNeverTriedAgain) {
    P p;
    p.anchored(1, 0, 0);
    EXPECT_FALSE(p.sparse_hopeless(0));  // not a sparse anchor
    p.anchored(3, 20000, 0);
    EXPECT_TRUE(p.sparse_hopeless(0));
    // Another run with the same gap, long after the wait: no.
    const uint64_t t = 5000000;
    EXPECT_FALSE(met_thrice(p, 4, t, 20000));
    // Another gap: yes.
    EXPECT_TRUE(met_thrice(p, 5, t, 30000));
}

TEST(StretchPolicy, ASparseAnchorWithoutACheckpointIsNeverOneAgain) {
    P p;
    ASSERT_TRUE(met_thrice(p, 3, 0, 20000));
    p.anchored(3, 20000, 40000);
    p.sparse_unarmed();
    EXPECT_EQ(p.sparse_gap(), 0u);
    EXPECT_FALSE(p.sparse_anchor(3, 60000, 0, false));
    EXPECT_FALSE(p.sparse_anchor(3, 80000, 0, false));
}

TEST(StretchPolicy, OtherRunsWhileRecording) {
    P p;
    p.anchored(9, 0, 0);
    p.repeated();            // shape 9: a good anchor
    p.anchored(1, 0, 1000);  // the anchor, met at 1,000
    EXPECT_EQ(p.other_run(9, 1000 + 1024), P::Other::keep);
    EXPECT_EQ(p.other_run(9, 1000 + 1025), P::Other::switch_to);  // more than a stretch's length since
    EXPECT_EQ(p.other_run(2, 1000 + 16384), P::Other::keep);
    EXPECT_EQ(p.other_run(2, 1000 + 16385), P::Other::lost);       // more than patience since
    p.met(20000);
    EXPECT_EQ(p.other_run(2, 20000 + 16384), P::Other::keep);
    // A sparse anchor keeps its turn, and is lost only after four gaps.
    p.anchored(1, 20000, 0);
    EXPECT_EQ(p.other_run(9, 5000), P::Other::keep);
    EXPECT_EQ(p.other_run(2, 80000), P::Other::keep);
    EXPECT_EQ(p.other_run(2, 80001), P::Other::lost);
}

TEST(StretchPolicy, CheckpointsAndWalks) {
    EXPECT_FALSE(P::checkpoint_due(2047, 1024));
    EXPECT_TRUE(P::checkpoint_due(2048, 1024));
    // With 17 checkpoints kept (16 and the one met now), the last 4 before it: 12 to 15.
    EXPECT_FALSE(P::within_walk_reach(11, 17));
    EXPECT_TRUE(P::within_walk_reach(12, 17));
    EXPECT_TRUE(P::within_walk_reach(15, 17));
}

}  // namespace
}  // namespace pmusim::replay
