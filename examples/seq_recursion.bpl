// expect: unsafe --depth 5
// expect: depth-bound --depth 4
//
// Recursion and the call-depth bound: down() counts its own depth in the
// 3-bit global d and fails when d reaches 4, which needs main's frame plus
// four frames of down(), five in all. With --depth 4 the violation lies
// beyond the bound, and the answer is "depth bound reached", not "safe".
decl d0, d1, d2;

void down()
begin
  d2, d1, d0 := d2 ^ (d1 & d0), d1 ^ d0, !d0;
  if (d2 & !d1 & !d0) then
    assert(F);
  fi
  if (*) then
    down();
  fi
end

void main()
begin
  d2, d1, d0 := F, F, F;
  down();
end
