// Embind registration of memory(), linked into both wasm modules (the lessons' and the
// trainer's): each module has its own memory and allocator.

#include <emscripten/bind.h>
#include <emscripten/heap.h>
#include <emscripten/val.h>
#include <malloc.h>

using emscripten::val;

namespace {

// Bytes the allocator has handed out, and the size of wasm memory.
val memory() {
  val out = val::object();
  // uordblks is an int: past 2 GB (the model module grows to 4 GB) it reads as unsigned
  out.set("usedBytes", static_cast<double>(static_cast<unsigned>(mallinfo().uordblks)));
  out.set("heapBytes", static_cast<double>(emscripten_get_heap_size()));
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(memory) { emscripten::function("memory", &memory); }
