#pragma once

#include <cstddef>
#include <string>

namespace ocelot::testing {

/// PTX generated to stress the front end and the analyses at sizes no corpus module reaches.
/// Every generator is deterministic: the same arguments give the same text.

/// A module shaped like nvcc's output (`nvcc -ptx`, no -lineinfo): kernels of a few hundred
/// instructions each (parameter loads, address arithmetic, global loads and stores, compares,
/// guarded branches, loops, calls through `{ .param ...; call.uni ...; }` sequences to device
/// functions), about 20 bytes of text per instruction, until the text reaches `bytes`.
std::string nvccLikeModule(std::size_t bytes);

/// One kernel with `depth` counted loops nested inside each other (one register, one label and
/// one latch per loop; the innermost body does a little arithmetic).
std::string nestedLoops(std::size_t depth);

/// `count` device functions where each calls the next, and one kernel that calls the first.
std::string callChain(std::size_t count);

} // namespace ocelot::testing
