#include <vector>
#include <string>
#include <map>
#include <memory>
#include <functional>
std::vector<std::string> *keep;
int main() {
  keep = new std::vector<std::string>;
  for (int i = 0; i < 100; i++) keep->push_back(std::string(40 + i, 'x'));
  std::map<int, std::unique_ptr<int[]>> m;
  for (int i = 0; i < 50; i++) m[i].reset(new int[i + 1]);
  auto f = [](int n) { return std::make_shared<std::vector<int>>(n); };
  auto v = f(1000);
  std::function<void()> g = [&]() { auto *p = new char[300]; delete[] p; };
  g();
  return 0;
}
