// PERF_LISTEN: the address it gives, and the warning lines for a bad or far-reaching one.
#include "export/listen_config.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fake_environment.hpp"

namespace perf::runtime {
namespace {

listen_config parse_listen(const std::map<std::string, std::string>& environment) {
  return parse_listen_config(fake_environment(environment));
}

TEST(ListenConfig, UnsetOrEmptyLeavesTheEndpointOffSilently) {
  for (const listen_config& c : {parse_listen({}), parse_listen({{"PERF_LISTEN", ""}})}) {
    EXPECT_FALSE(c.address.has_value());
    EXPECT_TRUE(c.warnings.empty());
  }
}

TEST(ListenConfig, ALoopbackAddressIsUsedWithoutAWord) {
  const listen_config c = parse_listen({{"PERF_LISTEN", "9464"}});
  ASSERT_TRUE(c.address.has_value());
  EXPECT_EQ(describe(*c.address), "127.0.0.1:9464");
  EXPECT_TRUE(c.warnings.empty());
}

TEST(ListenConfig, AnAddressBeyondTheMachineIsUsedAndWarnedOf) {
  const listen_config c = parse_listen({{"PERF_LISTEN", "0.0.0.0:9464"}});
  ASSERT_TRUE(c.address.has_value());
  EXPECT_FALSE(c.address->loopback);
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"PERF_LISTEN='0.0.0.0:9464' serves the statistics and profiles "
                                                  "beyond this machine, without authentication"}));
}

TEST(ListenConfig, ABadValueTurnsTheEndpointOffSayingWhy) {
  const listen_config c = parse_listen({{"PERF_LISTEN", "127.0.0.1:http"}});
  EXPECT_FALSE(c.address.has_value());
  EXPECT_EQ(c.warnings, (std::vector<std::string>{"PERF_LISTEN='127.0.0.1:http': 'http' is not a port from 0 to "
                                                  "65535; the live endpoint is off"}));
}

}  // namespace
}  // namespace perf::runtime
