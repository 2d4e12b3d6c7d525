import { mount } from "../shared/mount.ts";
import { Playground } from "./Playground.tsx";

mount(<Playground />);
