/**
 * A minimal protobuf encoder, just enough to hand-write ONNX models in tests: varint and
 * length-delimited fields. Field numbers come from onnx.proto.
 */
export class ProtoWriter {
  private readonly parts: Uint8Array[] = [];

  private pushVarint(value: number | bigint): void {
    let v = BigInt(value);
    // int64 negatives are encoded as their 64-bit two's complement (10 bytes).
    if (v < 0n) v = BigInt.asUintN(64, v);
    const bytes: number[] = [];
    do {
      let byte = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) byte |= 0x80;
      bytes.push(byte);
    } while (v > 0n);
    this.parts.push(Uint8Array.from(bytes));
  }

  private key(field: number, wireType: 0 | 2): void {
    this.pushVarint((field << 3) | wireType);
  }

  /** int32 / int64 / enum / bool field. */
  varint(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.pushVarint(value);
    return this;
  }

  bytes(field: number, data: Uint8Array): this {
    this.key(field, 2);
    this.pushVarint(data.length);
    this.parts.push(data);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, build: (w: ProtoWriter) => void): this {
    const inner = new ProtoWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    const total = this.parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const p of this.parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}
