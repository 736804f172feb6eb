#include "core/sites.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <tuple>

#include "core/uncounted_allocations.hpp"

namespace perf::runtime {
namespace {

// Where calls of sites beyond max_sites are counted, so nothing goes missing silently.
const site_info overflow_site = {"(sites beyond the limit of 65535)", "", 0, max_sites - 1};

// Who a site is across a library's unloading and loading again: the module its
// object lies in (by path), the object's offset there, its name and location.
using site_identity = std::tuple<std::string, uintptr_t, std::string, std::string, unsigned>;

struct site_table {
  std::mutex mutex;
  std::vector<site_info> sites{site_info{}};
  unsigned count = 1;  // atomic: sites.size(), readable without the lock
  std::map<std::tuple<std::string, std::string, unsigned>, unsigned> rows;  // first id per location
  std::map<site_identity, unsigned> ids;  // the id of each site in a module
};

// Never destroyed: sites are read after static destructors have run.
site_table& table() {
  static site_table* const the_table = new site_table;
  return *the_table;
}

// Site names by id for the crash dump, which may not take the lock. Zero pages until used.
const char* signal_safe_site_names[max_sites];

}  // namespace

unsigned register_site(detail::site& s) {
  const uncounted_allocations runtime_work;
  // Before the lock: dladdr takes the loader's, which a thread running a library's
  // constructors holds while its measured calls register their sites.
  Dl_info module;
  const bool in_module = dladdr(&s, &module) != 0 && module.dli_fname != nullptr;
  site_identity identity;
  if (in_module)
    identity = {module.dli_fname, reinterpret_cast<uintptr_t>(&s) - reinterpret_cast<uintptr_t>(module.dli_fbase),
                s.name, s.file, s.line};
  site_table& t = table();
  std::lock_guard lock(t.mutex);
  if (unsigned existing = __atomic_load_n(&s.key, __ATOMIC_RELAXED); existing != 0) return existing;
  unsigned id = max_sites - 1;
  unsigned row = id;
  if (const auto known = in_module ? t.ids.find(identity) : t.ids.end(); known != t.ids.end()) {
    // A library loaded again (dlopen after dlclose): its site keeps its id.
    id = known->second;
    row = t.sites[id].row;
  } else if (t.sites.size() < max_sites - 1) {
    id = static_cast<unsigned>(t.sites.size());
    row = t.rows.try_emplace({s.name, s.file, s.line}, id).first->second;
    t.sites.push_back({s.name, s.file, s.line, row});
    if (in_module) t.ids.emplace(std::move(identity), id);
    __atomic_store_n(&signal_safe_site_names[id], strdup(s.name), __ATOMIC_RELEASE);
  } else if (t.sites.size() == max_sites - 1) {
    t.sites.push_back(overflow_site);
  }
  __atomic_store_n(&t.count, static_cast<unsigned>(t.sites.size()), __ATOMIC_RELEASE);
  const unsigned key = detail::site_key(id, row);
  __atomic_store_n(&s.key, key, __ATOMIC_RELAXED);
  return key;
}

unsigned site_count() noexcept { return __atomic_load_n(&table().count, __ATOMIC_ACQUIRE); }

std::vector<site_info> copy_sites() { return copy_sites_from(0); }

std::vector<site_info> copy_sites_from(unsigned first) {
  site_table& t = table();
  std::lock_guard lock(t.mutex);
  return first < t.sites.size() ? std::vector<site_info>(t.sites.begin() + first, t.sites.end()) : std::vector<site_info>{};
}

const char* site_name(unsigned id) noexcept {
  return id < max_sites ? __atomic_load_n(&signal_safe_site_names[id], __ATOMIC_ACQUIRE) : nullptr;
}

void lock_sites_for_fork() { table().mutex.lock(); }

void unlock_sites_after_fork() { table().mutex.unlock(); }

}  // namespace perf::runtime

unsigned perf::detail::register_site(site& s) noexcept { return runtime::register_site(s); }
