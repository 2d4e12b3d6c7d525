import { mount } from "../shared/mount.ts";
import { Bench } from "./Bench.tsx";

mount(<Bench />);
