// EventBatch (model/core/pmu.hpp): each event once in `events`, in the order first added, its counts summed, also
// where two events share a slot of the index (event numbers equal modulo 256) and where the index holds slots
// left from before clear(). The index appends without a search until two events of `events` share a slot.
#include <gtest/gtest.h>

#include <vector>

#include "model/core/pmu.hpp"

namespace pmusim {
namespace {

std::vector<uint32_t> order(const EventBatch& b) {
    std::vector<uint32_t> v;
    for (const auto& e : b.events) v.push_back(e.event);
    return v;
}

// 3, 259 and 515 share a slot (3 modulo 256): each added twice, interleaved, stays one entry with both counts.
TEST(EventBatch, EventsSharingASlotAreEachKeptOnce) {
    EventBatch b;
    b.add(3, 1);
    b.add(259, 10);
    b.add(3, 2);  // its slot now points at 259
    b.add(515, 100);
    b.add(259, 20);  // its slot now points at 515
    b.add(3, 4);
    EXPECT_EQ(order(b), (std::vector<uint32_t>{3, 259, 515}));
    EXPECT_EQ(b.count(3), 7u);
    EXPECT_EQ(b.count(259), 30u);
    EXPECT_EQ(b.count(515), 100u);
}

// After clear() the slots still point where the last batch's events were: an index now holding another slot's
// event, or an event of the same slot added after the clear, is not taken for the event added.
TEST(EventBatch, SlotsLeftFromBeforeClearAreNotTrusted) {
    EventBatch b;
    b.add(7, 1);
    b.add(3, 1);  // slot 3 -> index 1
    b.clear();
    b.add(5, 1);    // index 0
    b.add(259, 1);  // index 1: slot 3's old index now holds an event of slot 3 that is not 3
    b.add(3, 2);    // so 3 is appended, not added to 259
    b.add(7, 3);    // slot 7's old index 0 holds 5: 7 is appended
    b.add(259, 4);
    b.add(3, 5);
    EXPECT_EQ(order(b), (std::vector<uint32_t>{5, 259, 3, 7}));
    EXPECT_EQ(b.count(5), 1u);
    EXPECT_EQ(b.count(259), 5u);
    EXPECT_EQ(b.count(3), 7u);
    EXPECT_EQ(b.count(7), 3u);
    b.clear();
    b.add(3, 1);  // slot 3's old index 2 lies past the one event: appended
    b.add(3, 1);
    EXPECT_EQ(order(b), (std::vector<uint32_t>{3}));
    EXPECT_EQ(b.count(3), 2u);
}

// A copy carries the index with its events: adding to it finds them.
TEST(EventBatch, ACopyFindsItsEvents) {
    EventBatch a;
    a.add(3, 1);
    a.add(259, 1);
    EventBatch c = a;
    c.add(3, 1);
    c.add(259, 1);
    EXPECT_EQ(order(c), (std::vector<uint32_t>{3, 259}));
    EXPECT_EQ(c.count(3), 2u);
    EXPECT_EQ(c.count(259), 2u);
}

}  // namespace
}  // namespace pmusim
