#include "core/sites.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <tuple>
#include <utility>

#include "core/runtime_work.hpp"
#include "core/uncounted_allocations.hpp"

namespace perf::runtime {
namespace {

using row_map = std::map<std::tuple<std::string, std::string, unsigned>, unsigned>;
// Who a site is across a library's unloading and loading again: the module its
// object lies in (by path), the object's offset there, its name and location.
using site_identity = std::tuple<std::string, uintptr_t, std::string, std::string, unsigned>;
using id_map = std::map<site_identity, unsigned>;

// A map's node holding `key` (and 0), made outside the table's lock, to be inserted
// under it without allocating.
template <typename Map>
typename Map::node_type detached_node(typename Map::key_type key) {
  Map one;
  one.try_emplace(std::move(key), 0);
  return one.extract(one.begin());
}

// The table allocates nothing while it holds its lock: an allocation may run the
// program's own operator new or malloc, which may take the program's locks or make
// measured calls (a logging library's allocation hook), and another thread holding
// such a lock may be waiting for this one.
struct site_table {
  std::mutex mutex;
  // max_sites entries, address space only until used. [0, count) are constructed,
  // published by the release store of count, and never change; so is [max_sites - 1],
  // where the calls of sites beyond max_sites are counted, so nothing goes missing
  // silently.
  site_info* sites = static_cast<site_info*>(std::calloc(max_sites, sizeof(site_info)));
  unsigned count = 1;  // atomic: readable without the lock
  row_map rows;        // first id per location
  id_map ids;          // the id of each site in a module
  site_table() {
    new (&sites[0]) site_info{};
    new (&sites[max_sites - 1]) site_info{"(sites beyond the limit of 65535)", "", 0, max_sites - 1};
  }
};

// Never destroyed: sites are read after static destructors have run.
site_table& table() {
  static site_table* const the_table = new site_table;
  return *the_table;
}

// Site names by id for the crash dump, which may not take the lock. Zero pages until used.
const char* signal_safe_site_names[max_sites];
// Each site's address in its measured function's code (site_code). Zero pages until used.
uintptr_t code_addresses[max_sites];

}  // namespace

unsigned register_site(detail::site& s, const void* code) {
  const runtime_work work;
  const uncounted_allocations runtime_allocations;
  site_table& t = table();
  // Before the lock: dladdr takes the loader's, which a thread running a library's
  // constructors holds while its measured calls register their sites.
  Dl_info module;
  const bool in_module = dladdr(&s, &module) != 0 && module.dli_fname != nullptr;
  // What a new site needs, made before locking; whatever is left is freed after.
  site_info info{s.name, s.file, s.line, 0};
  row_map::node_type row_node = detached_node<row_map>({s.name, s.file, s.line});
  id_map::node_type id_node;
  if (in_module)
    id_node = detached_node<id_map>({module.dli_fname,
                                     reinterpret_cast<uintptr_t>(&s) - reinterpret_cast<uintptr_t>(module.dli_fbase),
                                     s.name, s.file, s.line});
  char* signal_safe_name = strdup(s.name);
  unsigned key = 0;
  {
    std::lock_guard lock(t.mutex);
    if (unsigned existing = __atomic_load_n(&s.key, __ATOMIC_RELAXED); existing != 0) {
      key = existing;
    } else {
      unsigned id = max_sites - 1;
      unsigned row = id;
      if (const auto known = in_module ? t.ids.find(id_node.key()) : t.ids.end(); known != t.ids.end()) {
        // A library loaded again (dlopen after dlclose): its site keeps its id.
        id = known->second;
        row = t.sites[id].row;
        __atomic_store_n(&code_addresses[id], reinterpret_cast<uintptr_t>(code), __ATOMIC_RELAXED);
      } else if (t.count < max_sites - 1) {
        id = t.count;
        if (in_module) {
          id_node.mapped() = id;
          t.ids.insert(std::move(id_node));
        }
        row_map::insert_return_type added = t.rows.insert(std::move(row_node));
        if (added.inserted) added.position->second = id;
        row = added.position->second;
        row_node = std::move(added.node);
        info.row = row;
        new (&t.sites[id]) site_info(std::move(info));
        __atomic_store_n(&signal_safe_site_names[id], std::exchange(signal_safe_name, nullptr), __ATOMIC_RELEASE);
        __atomic_store_n(&code_addresses[id], reinterpret_cast<uintptr_t>(code), __ATOMIC_RELAXED);
        __atomic_store_n(&t.count, id + 1, __ATOMIC_RELEASE);
      } else if (t.count == max_sites - 1) {
        __atomic_store_n(&t.count, max_sites, __ATOMIC_RELEASE);
      }
      key = detail::site_key(id, row);
      __atomic_store_n(&s.key, key, __ATOMIC_RELAXED);
    }
  }
  std::free(signal_safe_name);
  return key;
}

unsigned site_count() noexcept { return __atomic_load_n(&table().count, __ATOMIC_ACQUIRE); }

std::vector<site_info> copy_sites() { return copy_sites_from(0); }

std::vector<site_info> copy_sites_from(unsigned first) {
  const site_table& t = table();
  const unsigned count = __atomic_load_n(&t.count, __ATOMIC_ACQUIRE);
  return first < count ? std::vector<site_info>(t.sites + first, t.sites + count) : std::vector<site_info>{};
}

const char* site_name(unsigned id) noexcept {
  return id < max_sites ? __atomic_load_n(&signal_safe_site_names[id], __ATOMIC_ACQUIRE) : nullptr;
}

uintptr_t site_code(unsigned id) noexcept {
  return id < max_sites ? __atomic_load_n(&code_addresses[id], __ATOMIC_RELAXED) : 0;
}

void lock_sites_for_fork() { table().mutex.lock(); }

void unlock_sites_after_fork() { table().mutex.unlock(); }

}  // namespace perf::runtime

unsigned perf::detail::register_site(site& s, const void* code) noexcept { return runtime::register_site(s, code); }
