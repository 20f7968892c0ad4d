//===- EmitNVIDIA.cpp - NVIDIA-only ops of the kernel emitter -------------===//

#include "EmitNVIDIA.h"

#include "TileDialect/Conversion/TileToGPU/TileToGPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <string>

using namespace mlir;
using namespace mlir::tileir::gpu_lowering;

//===----------------------------------------------------------------------===//
// mma.sync
//===----------------------------------------------------------------------===//

/// The instruction of a bf16 mma.sync (inline PTX).
static constexpr llvm::StringLiteral kBF16MmaSync =
    "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32";

bool mlir::tileir::isMmaSync(Operation *op) {
  auto inlineAsm = dyn_cast<LLVM::InlineAsmOp>(op);
  return isa<nvgpu::MmaSyncOp>(op) ||
         (inlineAsm && inlineAsm.getAsmString().starts_with(kBF16MmaSync));
}

Value nvidia::zeroAccumulator(OpBuilder &b, Location loc) {
  auto type = VectorType::get({2, 2}, b.getF32Type());
  return arith::ConstantOp::create(
      b, loc, type, DenseElementsAttr::get(type, b.getF32FloatAttr(0.0)));
}

Value nvidia::aFragment(OpBuilder &b, Location loc, ArrayRef<Value> rowG,
                        ArrayRef<Value> rowG8) {
  auto type = VectorType::get({4, 2}, rowG[0].getType());
  return vector::FromElementsOp::create(b, loc, type,
                                        ValueRange{rowG[0], rowG[1], rowG8[0],
                                                   rowG8[1], rowG[2], rowG[3],
                                                   rowG8[2], rowG8[3]});
}

Value nvidia::mmaStep(OpBuilder &b, Location loc, Value a,
                      ArrayRef<Value> bValues, Value acc) {
  auto type = VectorType::get({2, 2}, bValues[0].getType());
  Value bFragment = vector::FromElementsOp::create(b, loc, type, bValues);
  return mmaFragments(b, loc, a, bFragment, acc);
}

Value nvidia::mmaFragments(OpBuilder &b, Location loc, Value a,
                           Value bFragment, Value acc) {
  if (!cast<VectorType>(a.getType()).getElementType().isBF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                    ArrayRef<int64_t>{16, 8, 16});
  // bf16: nvgpu's conversion does not take it, so the instruction itself.
  // Each row of a fragment (two bf16, the lower index in the low half) is
  // one b32 register; the accumulator's four f32 in row-major order.
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  SmallVector<Value> args;
  auto pack = [&](Value fragment, int64_t rows) {
    for (int64_t r = 0; r < rows; ++r) {
      Value pair = vector::ExtractOp::create(b, loc, fragment, r);
      Value word = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, i32), pair);
      args.push_back(vector::ExtractOp::create(b, loc, word, 0));
    }
  };
  pack(a, 4);
  pack(bFragment, 2);
  for (int64_t i = 0; i < 4; ++i)
    args.push_back(vector::ExtractOp::create(
        b, loc, acc, ArrayRef<int64_t>{i / 2, i % 2}));
  auto result = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(4, f32));
  auto mma = LLVM::InlineAsmOp::create(
      b, loc, result, args,
      (kBF16MmaSync + " {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, "
                      "{$10, $11, $12, $13};")
          .str(),
      "=f,=f,=f,=f,r,r,r,r,r,r,f,f,f,f", /*has_side_effects=*/false,
      /*is_align_stack=*/false, LLVM::TailCallKind::None,
      /*asm_dialect=*/nullptr, /*operand_attrs=*/nullptr);
  SmallVector<Value> sums;
  for (int64_t i = 0; i < 4; ++i)
    sums.push_back(
        LLVM::ExtractValueOp::create(b, loc, mma.getResult(0), i));
  return vector::FromElementsOp::create(
      b, loc, VectorType::get({2, 2}, f32), sums);
}

Value nvidia::asyncCopy16(OpBuilder &b, Location loc, Value dst,
                          Value dstOffset, Value src, Value srcOffset) {
  auto token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCopyOp::create(
      b, loc, token, dst, ValueRange{dstOffset}, src, ValueRange{srcOffset},
      b.getIndexAttr(8), /*srcElements=*/Value(), b.getUnitAttr());
}

Value nvidia::asyncGroup(OpBuilder &b, Location loc, ValueRange tokens) {
  auto token = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  return nvgpu::DeviceAsyncCreateGroupOp::create(b, loc, token, tokens);
}

void nvidia::asyncWait(OpBuilder &b, Location loc, Value group,
                       int32_t pending) {
  nvgpu::DeviceAsyncWaitOp::create(b, loc, group, b.getI32IntegerAttr(pending));
}

Value nvidia::loadMatrices(OpBuilder &b, Location loc, Value shared,
                           Value offset, bool transpose) {
  auto type = VectorType::get(
      {4, 2}, cast<MemRefType>(shared.getType()).getElementType());
  return nvgpu::LdMatrixOp::create(b, loc, type, shared, ValueRange{offset},
                                   transpose, /*numTiles=*/4);
}

Value nvidia::tf32AFragment(OpBuilder &b, Location loc,
                            ArrayRef<Value> values) {
  // Round to nearest (ties away from zero) at tf32's 10 mantissa bits, as
  // cvt.rna.tf32.f32 does; mma.sync would drop the low 13 bits.
  Type f32 = b.getF32Type();
  auto i32 = b.getI32Type();
  SmallVector<Value> rounded;
  for (Value v : values) {
    Value bits = arith::BitcastOp::create(b, loc, i32, v);
    bits = arith::AddIOp::create(
        b, loc, bits, arith::ConstantIntOp::create(b, loc, i32, 0x1000));
    bits = arith::AndIOp::create(
        b, loc, bits,
        arith::ConstantIntOp::create(b, loc, i32, int64_t(0xFFFFE000)));
    rounded.push_back(arith::BitcastOp::create(b, loc, f32, bits));
  }
  return vector::FromElementsOp::create(b, loc, VectorType::get({4, 1}, f32),
                                        rounded);
}

Value nvidia::tf32MmaStep(OpBuilder &b, Location loc, Value a,
                          ArrayRef<Value> halves, Value acc) {
  // f16 values are exact in tf32.
  Type f32 = b.getF32Type();
  SmallVector<Value> wide;
  for (Value h : halves)
    wide.push_back(arith::ExtFOp::create(b, loc, f32, h));
  Value bFragment = vector::FromElementsOp::create(
      b, loc, VectorType::get({2, 1}, f32), wide);
  return nvgpu::MmaSyncOp::create(b, loc, a, bFragment, acc,
                                  ArrayRef<int64_t>{16, 8, 8},
                                  /*tf32Enabled=*/true);
}

//===----------------------------------------------------------------------===//
// Inline PTX and grid dependency control
//===----------------------------------------------------------------------===//

void nvidia::inlinePTX(OpBuilder &b, Location loc, StringRef ptx,
                       StringRef constraints, ValueRange args) {
  LLVM::InlineAsmOp::create(b, loc, TypeRange{}, args, ptx, constraints,
                            /*has_side_effects=*/true, /*is_align_stack=*/false,
                            LLVM::TailCallKind::None, /*asm_dialect=*/nullptr,
                            /*operand_attrs=*/nullptr);
}

void nvidia::vectorAtomicAdd(OpBuilder &b, Location loc, Value address,
                             ValueRange values) {
  // The address converted from generic to global.
  std::string operands, constraints = "l";
  for (unsigned i = 0; i < values.size(); ++i) {
    operands += (i ? ", $" : "$") + std::to_string(i + 1);
    constraints += ",f";
  }
  std::string ptx = "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; "
                    "red.global.add.v" +
                    std::to_string(values.size()) + ".f32 [%ga], {" + operands +
                    "}; }";
  SmallVector<Value> args{address};
  args.append(values.begin(), values.end());
  inlinePTX(b, loc, ptx, constraints, args);
}

void nvidia::prefetchL2(OpBuilder &b, Location loc, Value address) {
  inlinePTX(b, loc,
            "{ .reg .b64 %ga; cvta.to.global.u64 %ga, $0; "
            "prefetch.global.L2 [%ga]; }",
            "l", address);
}

void nvidia::waitAfterPrefetches(OpBuilder &b, Location loc) {
  auto wait =
      NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
  wait->setAttr("tile.prefetched", b.getUnitAttr());
}
