import { ProtoWriter } from './protobufWriter';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('ProtoWriter', () => {
  it('encodes varints, including multi-byte and negative int64 values', () => {
    expect(hex(new ProtoWriter().varint(1, 150).finish())).toBe('089601');
    expect(hex(new ProtoWriter().varint(2, 0).finish())).toBe('1000');
    // -1 as int64 is ten bytes of two's complement.
    expect(hex(new ProtoWriter().varint(1, -1).finish())).toBe(
      '08ffffffffffffffffff01',
    );
  });

  it('encodes strings and nested messages with length prefixes', () => {
    expect(hex(new ProtoWriter().string(2, 'testing').finish())).toBe(
      '120774657374696e67',
    );
    const nested = new ProtoWriter().message(3, w => w.varint(1, 150)).finish();
    expect(hex(nested)).toBe('1a03089601');
  });
});
