#pragma once
// A store in a fresh temporary folder, removed at the end, with the vacations read from it: for
// the tests of vacations and of what shows them.
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "accounts/vacations.hpp"
#include "gcor/store/sqlite_store.hpp"

namespace gcor::server {

class VacationsInStore {
  public:
    explicit VacationsInStore(int days_per_year = 30) : days_per_year_(days_per_year) {
        std::random_device random;
        folder_ = std::filesystem::temp_directory_path() /
                  ("gcor-vacations-" + std::to_string(random()) + std::to_string(random()));
        store_ = open_sqlite_store({.path = (folder_ / "store.db").string()});
        vacations_.emplace(*store_, days_per_year);
    }
    ~VacationsInStore() {
        vacations_.reset();
        store_.reset();
        std::error_code ignored;
        std::filesystem::remove_all(folder_, ignored);
    }
    VacationsInStore(const VacationsInStore&) = delete;
    VacationsInStore& operator=(const VacationsInStore&) = delete;

    Store& store() { return *store_; }
    Vacations& vacations() { return *vacations_; }
    // The vacations as a server started now would load them.
    Vacations reopened() { return Vacations(*store_, days_per_year_); }

  private:
    int days_per_year_;
    std::filesystem::path folder_;
    std::unique_ptr<Store> store_;
    std::optional<Vacations> vacations_;
};

}  // namespace gcor::server
