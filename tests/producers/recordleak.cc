// SPDX-License-Identifier: MIT
// recordleak.cc - a C++ program for tests/cli/record.sh: Session::remember
// keeps a 64 KiB buffer (operator new[]) in a vector every step and
// nothing frees them; a std::string of 200 KiB comes and goes each step.
//
// Build: c++ -O1 -g -fno-omit-frame-pointer -o recordleakxx recordleak.cc
// Usage: recordleakxx STEPS
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace app {

class Session {
public:
	__attribute__((noinline)) void remember(int i)
	{
		char *p = new char[64 * 1024];

		std::memset(p, i & 0xff, 64 * 1024);
		kept_.push_back(p);
	}

private:
	std::vector<char *> kept_;
};

__attribute__((noinline)) static size_t
scratch(int i)
{
	std::string s(200 * 1024, static_cast<char>('a' + i % 26));

	return s.size();
}

} // namespace app

int
main(int argc, char **argv)
{
	app::Session *session = new app::Session;
	size_t sum = 0;
	int steps = argc > 1 ? static_cast<int>(std::strtol(argv[1], nullptr, 10)) : 40;

	for (int i = 0; i < steps; i++) {
		session->remember(i);
		sum += app::scratch(i);
	}
	std::printf("recordleakxx: %d steps\n", sum > 0 ? steps : 0);
	return 0;
}
